/** The options `run` and `ladder` share: everything that changes a score, and how to reach a model. */

import type { RunSettings } from '../results/result-file.js';
import type { ModelRequest } from '../run/resolve-model.js';

/** As commander parses them (camelCase of the flags). */
export interface SettingsCliOptions {
  k: number;
  earlyStop: boolean;
  apiKeyEnv: string;
  maxTurns?: number;
  commandTimeout: number;
  requestTimeout: number;
  retries: number;
  freshContainer: boolean;
  memory: number;
  pids: number;
  cpus: number;
  temperature: number;
  seed?: number;
  topP?: number;
  maxTokens?: number;
}

export function runSettings(o: SettingsCliOptions): RunSettings {
  return {
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
}

/** How to talk to a model, without which one and where (the caller adds `model` and `baseUrl`). */
export function modelAccess(
  o: SettingsCliOptions,
  settings: RunSettings,
): Omit<ModelRequest, 'model' | 'baseUrl'> {
  return {
    apiKeyEnv: o.apiKeyEnv,
    sampling: settings.sampling,
    requestTimeoutMs: o.requestTimeout * 1000,
    retries: o.retries,
  };
}
