/**
 * runBench on given Task objects (skill tasks, variants) against the scripted server. `baseUrl`
 * rewrites the server's URL as the harness is given it (credentials in it, say); the server's
 * requests and everything the run printed come back with the results.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResultFile, RunSettings } from '../../src/results/result-file.js';
import { runBench } from '../../src/run/run-bench.js';
import { FOLDER_INSTANCE } from '../../src/run/trial-instances.js';
import type { Task } from '../../src/tasks/types.js';
import { runSettings } from '../helpers/run-settings.js';
import { type RecordedRequest, type Script, startScriptedServer } from '../helpers/scripted-server.js';

const MODEL = 'scripted-model';

export async function benchTasks(
  tasks: Task[],
  script: Script,
  settings: Partial<RunSettings> = {},
  o: { baseUrl?: (serverUrl: string) => string } = {},
): Promise<{ results: ResultFile[]; resultsDir: string; requests: RecordedRequest[]; output: string }> {
  const server = await startScriptedServer({ scripts: { [MODEL]: script } });
  const resultsDir = await mkdtemp(join(tmpdir(), 'agent-bench-skill-results-'));
  let output = '';
  const sink = {
    write: (text: string) => {
      output += text;
      return true;
    },
    isTTY: false,
  };
  const all: RunSettings = runSettings({ ...settings });
  try {
    const results = await runBench({
      tasks,
      settings: all,
      resultsDir,
      resume: false,
      // Scripts replay the folders' own solutions: their own instance, not drawn ones.
      variants: { seed: 1, replay: FOLDER_INSTANCE },
      model: {
        model: MODEL,
        baseUrl: o.baseUrl === undefined ? server.baseUrl : o.baseUrl(server.baseUrl),
        apiKeyEnv: 'AGENT_BENCH_TEST_KEY',
        sampling: all.sampling,
        requestTimeoutMs: 30_000,
        retries: 0,
      },
      stdout: sink,
      stderr: sink,
      handleSignals: false,
    });
    return { results, resultsDir, requests: server.requests, output };
  } finally {
    await server.close();
  }
}
