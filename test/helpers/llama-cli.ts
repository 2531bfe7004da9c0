/** The built executable (bin/agent-bench runs dist/), run as a user runs it, for the real-server tests. */
import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BIN = join(import.meta.dirname, '../../bin/agent-bench');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `agent-bench ARGS` to its end (CI=true: plain progress lines, no colours). */
export function agentBench(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, CI: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `agent-bench run --tasks TASKS --base-url URL ...EXTRA` with results in a fresh folder. */
export async function runAgainst(
  baseUrl: string,
  tasks: string,
  extra: readonly string[] = [],
): Promise<CliRun & { resultsDir: string }> {
  const resultsDir = await mkdtemp(join(tmpdir(), 'agent-bench-llama-results-'));
  const run = await agentBench([
    'run',
    '--base-url',
    baseUrl,
    '--tasks',
    tasks,
    '--results-dir',
    resultsDir,
    ...extra,
  ]);
  return { ...run, resultsDir };
}
