/** The run settings a plain `agent-bench run` records, with a test's own changes on top. */
import type { RunSettings } from '../../src/results/result-file.js';
import { DEFAULT_COMMAND_TIMEOUT_SEC, DEFAULT_LIMITS } from '../../src/run/settings.js';

export function runSettings(overrides: Partial<RunSettings> = {}): RunSettings {
  return {
    k: 1,
    early_stop: false,
    max_turns: null,
    command_timeout_sec: DEFAULT_COMMAND_TIMEOUT_SEC,
    fresh_container: false,
    limits: DEFAULT_LIMITS,
    sampling: { temperature: 0 },
    ...overrides,
  };
}
