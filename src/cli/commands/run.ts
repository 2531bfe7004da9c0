/** `agent-bench run`: options in, results files out. */
import { resolve } from 'node:path';
import { selectTasks } from '../../run/select-tasks.js';
import { runBench } from '../../run/run-bench.js';
import type { RunSettings } from '../../run/settings.js';

export interface RunCliOptions {
  model?: string;
  tasks: string;
  task?: string;
  k: number;
  earlyStop: boolean;
  baseUrl?: string;
  apiKeyEnv: string;
  resultsDir: string;
  maxTurns?: number;
  commandTimeout: number;
  requestTimeout: number;
  retries: number;
  resume: boolean;
  freshContainer: boolean;
  memory: number;
  pids: number;
  cpus: number;
  temperature: number;
  seed?: number;
  topP?: number;
  maxTokens?: number;
}

export async function runCommand(o: RunCliOptions): Promise<void> {
  const settings: RunSettings = {
    k: o.k,
    early_stop: o.earlyStop,
    max_turns: o.maxTurns ?? null,
    command_timeout_sec: o.commandTimeout,
    fresh_container: o.freshContainer,
    limits: { memory_mb: o.memory, pids: o.pids, cpus: o.cpus },
    sampling: {
      temperature: o.temperature,
      ...(o.seed === undefined ? {} : { seed: o.seed }),
      ...(o.topP === undefined ? {} : { top_p: o.topP }),
      ...(o.maxTokens === undefined ? {} : { max_tokens: o.maxTokens }),
    },
  };
  await runBench({
    tasks: selectTasks(o.task ?? o.tasks),
    settings,
    resultsDir: resolve(o.resultsDir),
    resume: o.resume,
    model: {
      ...(o.model === undefined ? {} : { model: o.model }),
      ...(o.baseUrl === undefined ? {} : { baseUrl: o.baseUrl }),
      apiKeyEnv: o.apiKeyEnv,
      sampling: settings.sampling,
      requestTimeoutMs: o.requestTimeout * 1000,
      retries: o.retries,
    },
  });
}
