/**
 * `agent-bench run` on Harbor task folders through the built CLI, and `validate` on them in-process,
 * for the Harbor integration tests.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, vi } from 'vitest';
import { validateCommand } from '../../src/cli/commands/validate.js';
import type { ResultFile } from '../../src/results/result-file.js';
import { readResultFiles } from '../../src/results/store.js';

const BIN = join(import.meta.dirname, '../../bin/agent-bench');
const exec = promisify(execFile);

/** One run of `taskDir` with `args` (model, --base-image...), results in a fresh folder under `scratch`. */
export async function runHarborCli(
  scratch: string,
  taskDir: string,
  args: string[],
): Promise<{ code: number; stderr: string; result: ResultFile }> {
  const resultsDir = mkdtempSync(join(scratch, 'results-'));
  let code = 0;
  let stderr = '';
  try {
    ({ stderr } = await exec(
      process.execPath,
      [BIN, 'run', '--tasks-dir', taskDir, '--results-dir', resultsDir, ...args],
      { maxBuffer: 16 * 1024 * 1024 },
    ));
  } catch (err) {
    const e = err as { code?: number; stderr?: string };
    code = e.code ?? -1;
    stderr = e.stderr ?? '';
  }
  const { results } = await readResultFiles(resultsDir);
  expect(results, stderr).toHaveLength(1);
  return { code, stderr, result: (results[0] as { result: ResultFile }).result };
}

/**
 * `validate` on task folders, in-process: what it printed on stdout, its rows for the tasks named
 * (lines starting with one of `taskNames`), its exit code (0 when it returned) and the one line
 * it ended with when it threw (what the CLI prints on stderr).
 */
export async function validateHarborFolders(
  tasksDir: string[],
  opts: { baseImage?: string; taskNames: string[]; metamorphic?: true },
): Promise<{ out: string; rows: string[]; exitCode: number; error: string }> {
  let out = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  let exitCode = 0;
  let error = '';
  try {
    await validateCommand({
      tasks: 'all',
      tasksDir,
      ...(opts.baseImage === undefined ? {} : { baseImage: opts.baseImage }),
      ...(opts.metamorphic === true ? { metamorphic: true, cache: false } : {}),
    });
  } catch (err) {
    exitCode = (err as { exitCode?: number }).exitCode ?? -1;
    error = err instanceof Error ? err.message : String(err);
  } finally {
    vi.restoreAllMocks();
  }
  const rows = out.split('\n').filter((l) => opts.taskNames.some((name) => l.startsWith(`${name} `)));
  return { out, rows, exitCode, error };
}
