/**
 * Ground truth on the host: a workspace and a hidden folder in temporary directories, commands run
 * by the local bash with the sandbox's paths (/workspace, the hidden folder, the checker's home)
 * mapped onto them, as the harness maps /workspace onto its staged copy. For checks whose commands
 * run small programs of their own (the differential runners), not for the sandbox's isolation.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CHECKER_HOME, type ExecResult, WORKSPACE_DIR } from '../../src/sandbox/types.js';
import { type GroundTruth, HIDDEN_DIR } from '../../src/tasks/types.js';

export interface LocalGroundTruth extends GroundTruth {
  /** Every command run, as the check wrote it. */
  readonly asked: string[];
  cleanup(): void;
}

export function localGroundTruth(
  workspace: Readonly<Record<string, string>>,
  hidden: Readonly<Record<string, string>> = {},
): LocalGroundTruth {
  const root = mkdtempSync(join(tmpdir(), 'ground-truth-'));
  const put = (dir: string, files: Readonly<Record<string, string>>) => {
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content);
    }
  };
  const ws = join(root, 'workspace');
  mkdirSync(ws, { recursive: true });
  mkdirSync(join(root, 'checker'), { recursive: true });
  put(ws, workspace);
  put(join(root, 'hidden'), hidden);
  const map = (text: string): string =>
    text
      .replaceAll(HIDDEN_DIR, join(root, 'hidden'))
      .replaceAll(CHECKER_HOME, join(root, 'checker'))
      .replace(/\/workspace(?![\w.-])/g, ws);
  const asked: string[] = [];
  return {
    asked,
    async run(command): Promise<ExecResult> {
      asked.push(command);
      const started = Date.now();
      const r = spawnSync('bash', ['-c', map(command)], { cwd: ws, encoding: 'utf8', timeout: 120_000 });
      return {
        exitCode: r.status,
        stdout: r.stdout,
        stderr: r.stderr,
        stdoutCutBytes: 0,
        stderrCutBytes: 0,
        timedOut: r.error !== undefined,
        elapsedMs: Date.now() - started,
      };
    },
    async readFile(path) {
      return workspace[path.replace(`${WORKSPACE_DIR}/`, '')] ?? null;
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}
