/**
 * The real runBench (and through it the real runLadder) without Docker: each "machine" is a scripted
 * OpenAI-compatible server on 127.0.0.1, reached by the real openai client, and in-memory sandboxes.
 * What a trial does is decided by its task, its trial number and its model (`Play`), so the same work
 * run on one machine or split over several gives the same trial records.
 */
import type { LadderOptions } from '../../src/ladder/run-ladder.js';
import { createOpenAICompatibleModel } from '../../src/models/openai-compatible.js';
import type { ResultFile } from '../../src/results/result-file.js';
import type { ResolvedModel } from '../../src/run/resolve-model.js';
import { type BenchDeps, type BenchOptions, runBench } from '../../src/run/run-bench.js';
import type { Flag, Task } from '../../src/tasks/types.js';
import { InfraError } from '../../src/util/errors.js';
import { SAY_DONE } from '../helpers/memory-run.js';
import { memorySandbox } from '../helpers/memory-sandbox.js';
import { type ChatRequestBody, type ScriptedReply, startScriptedServer } from '../helpers/scripted-server.js';

/**
 * What one trial does. solve: a command, then "done" (passes). wrong: a command, then "nope" (misses
 * the outcome). skip: "done" at once (misses the process flag). text: the command as a text-format
 * call, then "done". bad: an unknown tool first, then as solve. overflow: the server says the context
 * is full (an `error` trial, not measured).
 */
export type Play = 'solve' | 'wrong' | 'skip' | 'text' | 'bad' | 'overflow';

const FLAGS: Flag[] = [
  {
    id: 'ran_command',
    description: 'a command ran',
    kind: 'process',
    check: (ctx) => {
      const call = ctx.calls.find((c) => c.name === 'execute_command' && c.invalid === null);
      return call === undefined ? { reached: false } : { reached: true, turn: call.turn };
    },
  },
  {
    id: 'said_done',
    description: 'the final answer is done',
    kind: 'outcome',
    check: (ctx) => (ctx.finalAnswer?.trim() === 'done' ? { reached: true, turn: null } : { reached: false }),
  },
];

export function task(name: string): Task {
  return { ...SAY_DONE, id: `${name}_v1`, prompt: `Task ${name}.`, flags: FLAGS };
}

/** Each reply of a play, by the number of replies before it in the trial. */
function reply(
  play: Play,
  turn: number,
  usage: { prompt_tokens: number; completion_tokens: number },
): ScriptedReply {
  const command = { name: 'execute_command', arguments: { command: 'echo hi' } };
  const steps: Record<Play, ScriptedReply[]> = {
    solve: [{ calls: [command] }, { text: 'done' }],
    wrong: [{ calls: [command] }, { text: 'nope' }],
    skip: [{ text: 'done' }],
    text: [{ text: `<tool_call>${JSON.stringify(command)}</tool_call>` }, { text: 'done' }],
    bad: [{ calls: [{ name: 'launch_rocket', arguments: {} }] }, { calls: [command] }, { text: 'done' }],
    overflow: [
      {
        status: 400,
        error: 'request (17034 tokens) exceeds the available context size (16384 tokens), try increasing it',
      },
    ],
  };
  const step = steps[play][turn] ?? { text: 'done' };
  // Token counts the test chooses: the server's own estimate would count the call ids, which differ by server.
  return 'status' in step ? step : { ...step, usage };
}

/** The model name on the wire names the trial too (`model@3`), since nothing else a request carries does. */
const wireName = (model: string, trial: number): string => `${model}@${trial}`;

export interface Machine {
  deps: Partial<BenchDeps>;
  close(): Promise<void>;
}

/**
 * One machine: its own model server, playing `plays(model, task, trial)` for the `models` (trials 0..k-1),
 * and in-memory sandboxes. `unreachable` models fail to resolve, as a server that is down.
 */
export async function startMachine(o: {
  models: readonly string[];
  k: number;
  plays: (model: string, taskId: string, trial: number) => Play;
  unreachable?: readonly string[];
}): Promise<Machine> {
  const scripts: Record<string, (body: ChatRequestBody) => ScriptedReply> = {};
  for (const model of o.models) {
    for (let trial = 0; trial < o.k; trial++) {
      scripts[wireName(model, trial)] = (body) => {
        const text = JSON.stringify(body.messages);
        const name = /Task (\w+)\./.exec(text)?.[1] ?? '?';
        const turn = body.messages.filter((m) => m.role === 'assistant').length;
        return reply(o.plays(model, `${name}_v1`, trial), turn, {
          prompt_tokens: 100 * (turn + 1) + trial,
          completion_tokens: 10 + turn,
        });
      };
    }
  }
  const server = await startScriptedServer({ scripts });
  const resolveModel = async (req: BenchOptions['model']): Promise<ResolvedModel> => {
    const name = req.model ?? '?';
    if (o.unreachable?.includes(name))
      throw new InfraError(`the model server for ${name} cannot be reached (connection refused)`);
    return {
      name,
      baseUrl: server.baseUrl,
      server: null,
      warnings: [],
      notice: null,
      dispose: async () => {},
      forTrial: (_task, trial) =>
        createOpenAICompatibleModel({
          baseUrl: server.baseUrl,
          model: wireName(name, trial),
          name,
          sampling: req.sampling,
          requestTimeoutMs: 10_000,
          maxRetries: 0,
        }),
    };
  };
  return {
    deps: {
      resolveModel,
      checkEngine: async () => ({ version: 'memory' }),
      sweepSandboxes: async () => 0,
      ensureImage: async () => ({ tag: 'memory', id: 'memory', source: 'cached', buildMs: 0 }),
      createSandbox: async () => memorySandbox(),
    },
    close: () => server.close(),
  };
}

/** The options of a quiet run of `model` into `resultsDir`; the caller adds the settings and the shard. */
export function quietRun(
  model: string,
  resultsDir: string,
  rest: Pick<BenchOptions, 'tasks' | 'settings'> & Partial<BenchOptions>,
): BenchOptions {
  const sink = { write: () => true, isTTY: false };
  return {
    resultsDir,
    resume: false,
    model: {
      model,
      apiKeyEnv: 'AGENT_BENCH_TEST_KEY',
      sampling: rest.settings.sampling,
      requestTimeoutMs: 10_000,
      retries: 0,
    },
    stdout: sink,
    stderr: sink,
    handleSignals: false,
    ...rest,
  };
}

/** runBench on a machine. */
export function benchOn(machine: Machine, o: BenchOptions): Promise<ResultFile[]> {
  return runBench(o, machine.deps);
}

/**
 * A results file with what differs between two runs of the same work taken out: run ids, clocks and
 * durations, which server (also where a message names it) and how many trials at once, and the
 * merge's own record. What is left is every verdict and every aggregate.
 */
export function verdictsOf(r: ResultFile): unknown {
  return JSON.parse(withoutServer(JSON.stringify(withoutMachine(r))));
}

/** Text with each machine's model server URL in it made one. */
export function withoutServer(text: string): string {
  return text.replace(/http:\/\/127\.0\.0\.1:\d+\/v1/g, 'SERVER');
}

function withoutMachine(r: ResultFile): unknown {
  const { run_id, started_at, updated_at, result_hash, elapsed_sec, environment, merged, shard, ...rest } = r;
  // The machine's load at a run's start (environment.machine) differs between any two runs.
  const { base_url, parallel, machine: _load, ...kept } = environment;
  return {
    ...rest,
    environment: kept,
    trials: r.trials.map(({ started_at: _s, elapsed_sec: _e, harness_sec: _h, ...t }) => ({
      ...t,
      turn_logs: t.turn_logs.map(({ elapsed_ms: _t, model_latency_ms: _l, ...turn }) => ({
        ...turn,
        tool_calls: turn.tool_calls.map(({ elapsed_ms: _c, ...call }) => call),
      })),
    })),
  };
}

/** A quiet ladder over `models` on a machine's server (http://machine/v1); the caller adds the rest. */
export function machineLadder(
  o: Pick<LadderOptions, 'tasks' | 'suite' | 'settings' | 'resultsDir'> & { models: string[] },
): LadderOptions {
  const sink = { write: () => true, isTTY: false };
  return {
    tasks: o.tasks,
    suite: o.suite,
    source: { kind: 'server', baseUrl: 'http://machine/v1', models: o.models },
    settings: o.settings,
    resultsDir: o.resultsDir,
    resume: false,
    exhaustive: false,
    request: {
      apiKeyEnv: 'AGENT_BENCH_TEST_KEY',
      sampling: o.settings.sampling,
      requestTimeoutMs: 10_000,
      retries: 0,
    },
    stdout: sink,
    stderr: sink,
    handleSignals: false,
  };
}
