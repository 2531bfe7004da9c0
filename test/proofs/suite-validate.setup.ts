/**
 * Vitest global setup of the `proofs` project: starts `agent-bench validate` on the whole suite at
 * the very start of the run, in a process of its own, so that its proofs (the longest work of the
 * suite, bound by the sandboxes' CPU) run while the other files mostly wait on the engine, one at
 * a time. The test file (validate.test.ts) runs last and reads what this writes: the rows as JSON
 * (`validate --json`), the command's log, and how it exited.
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rename, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

/** Instances proven of each variant task: `validate --variants 3`, as the issue on variants asks. */
export const SUITE_VARIANTS = 3;

/** How the validate process ended, as the test reads it. */
export interface SuiteValidateExit {
  code: number | null;
  signal: string | null;
  wallMs: number;
  parallel: number;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder suite-validate.setup.ts writes rows.json, validate.log and exit.json into. */
    suiteValidateDir: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-bench-suite-validate-'));
  project.provide('suiteValidateDir', dir);
  const root = join(import.meta.dirname, '../..');
  // Twice the cores: a proof waits on the engine (execs, resets) as much as it computes.
  const parallel = availableParallelism() * 2;
  const log = createWriteStream(join(dir, 'validate.log'));
  const started = Date.now();
  const child = spawn(
    process.execPath,
    [
      join(root, 'bin/agent-bench'),
      'validate',
      '--parallel',
      String(parallel),
      '--variants',
      String(SUITE_VARIANTS),
      '--json',
      join(dir, 'rows.json'),
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  let ended = false;
  child.on('close', (code, signal) => {
    ended = true;
    const exit: SuiteValidateExit = { code, signal, wallMs: Date.now() - started, parallel };
    log.end();
    // Renamed into place: once exit.json is there, rows.json (if any) and the log are whole.
    void writeFile(join(dir, 'exit.json.partial'), JSON.stringify(exit)).then(() =>
      rename(join(dir, 'exit.json.partial'), join(dir, 'exit.json')),
    );
  });
  // A run cut short (a filter, Ctrl-C) takes its proofs with it: their sandboxes go as validate ends.
  return () => {
    if (!ended) child.kill('SIGINT');
  };
}
