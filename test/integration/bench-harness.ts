/**
 * Runs the real bench (runBench: real openai client, real Docker sandbox, real scoring) against the
 * scripted OpenAI-compatible server, with results in a temporary folder.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { selectTasks } from '../../src/cli/select-tasks.js';
import type { ResultFile, RunSettings } from '../../src/results/result-file.js';
import { type BenchOptions, runBench } from '../../src/run/run-bench.js';
import { FOLDER_INSTANCE } from '../../src/run/trial-instances.js';
import type { Task } from '../../src/tasks/types.js';
import { runSettings } from '../helpers/run-settings.js';
import { type RecordedRequest, type Script, startScriptedServer } from '../helpers/scripted-server.js';

export const MODEL = 'scripted-model';

export interface BenchRun {
  results: ResultFile[];
  resultsDir: string;
  /** Everything progress printed (plain lines: not a terminal). */
  log: string;
  /** The chat requests the harness sent, in order. */
  requests: RecordedRequest[];
}

export async function benchWithScript(opts: {
  /** Task ids (`--tasks`), or tasks already loaded (a fixture folder). */
  tasks: string | Task[];
  script: Script;
  settings?: Partial<RunSettings>;
  resultsDir?: string;
  resume?: boolean;
  /** What the scripted server says about itself at GET /props (as llama-server does). */
  props?: unknown;
  parallel?: BenchOptions['parallel'];
  /** Aborts the run as Ctrl-C would. */
  signal?: AbortSignal;
  conditions?: BenchOptions['conditions'];
  variants?: BenchOptions['variants'];
}): Promise<BenchRun> {
  const server = await startScriptedServer({
    scripts: { [MODEL]: opts.script },
    ...(opts.props === undefined ? {} : { props: opts.props }),
  });
  const resultsDir = opts.resultsDir ?? (await mkdtemp(join(tmpdir(), 'agent-bench-results-')));
  let log = '';
  const sink = { write: (s: string) => (log += s), isTTY: false };
  try {
    const settings: RunSettings = runSettings({ ...opts.settings });
    const results = await runBench({
      tasks: typeof opts.tasks === 'string' ? selectTasks(opts.tasks) : opts.tasks,
      settings,
      resultsDir,
      resume: opts.resume ?? false,
      // Scripts replay the folders' own solutions: their own instance, not drawn ones.
      variants: opts.variants ?? { seed: 1, replay: FOLDER_INSTANCE },
      model: {
        model: MODEL,
        baseUrl: server.baseUrl,
        apiKeyEnv: 'AGENT_BENCH_TEST_KEY',
        sampling: settings.sampling,
        requestTimeoutMs: 30_000,
        retries: 0,
      },
      stdout: sink,
      stderr: sink,
      handleSignals: false,
      ...(opts.parallel === undefined ? {} : { parallel: opts.parallel }),
      ...(opts.signal === undefined ? {} : { signal: opts.signal }),
      ...(opts.conditions === undefined ? {} : { conditions: opts.conditions }),
    });
    return { results, resultsDir, log, requests: server.requests };
  } finally {
    await server.close();
  }
}

/** The one result of a single-task run. */
export function only(run: BenchRun): ResultFile {
  const [result] = run.results;
  if (result === undefined || run.results.length !== 1)
    throw new Error(`expected one result, got ${run.results.length}`);
  return result;
}
