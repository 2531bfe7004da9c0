/** runBench on given Task objects (skill tasks, variants) against the scripted server. */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResultFile, RunSettings } from '../../src/results/result-file.js';
import { runBench } from '../../src/run/run-bench.js';
import { DEFAULT_COMMAND_TIMEOUT_SEC, DEFAULT_LIMITS } from '../../src/run/settings.js';
import type { Task } from '../../src/tasks/types.js';
import { type Script, startScriptedServer } from '../helpers/scripted-server.js';

const MODEL = 'scripted-model';

export async function benchTasks(
  tasks: Task[],
  script: Script,
  settings: Partial<RunSettings> = {},
): Promise<{ results: ResultFile[]; resultsDir: string }> {
  const server = await startScriptedServer({ scripts: { [MODEL]: script } });
  const resultsDir = await mkdtemp(join(tmpdir(), 'agent-bench-skill-results-'));
  const sink = { write: (_: string) => true, isTTY: false };
  const all: RunSettings = {
    k: 1,
    early_stop: false,
    max_turns: null,
    command_timeout_sec: DEFAULT_COMMAND_TIMEOUT_SEC,
    fresh_container: false,
    limits: DEFAULT_LIMITS,
    sampling: { temperature: 0 },
    ...settings,
  };
  try {
    const results = await runBench({
      tasks,
      settings: all,
      resultsDir,
      resume: false,
      model: {
        model: MODEL,
        baseUrl: server.baseUrl,
        apiKeyEnv: 'AGENT_BENCH_TEST_KEY',
        sampling: all.sampling,
        requestTimeoutMs: 30_000,
        retries: 0,
      },
      stdout: sink,
      stderr: sink,
      handleSignals: false,
    });
    return { results, resultsDir };
  } finally {
    await server.close();
  }
}
