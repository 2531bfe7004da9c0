import { describe, expect, it } from 'vitest';
import type { RunSettings } from '../../src/results/result-file.js';
import { DEFAULT_COMMAND_TIMEOUT_SEC, DEFAULT_LIMITS, nonComparableReasons } from '../../src/run/settings.js';

const defaults: RunSettings = {
  k: 3,
  early_stop: true,
  max_turns: null,
  command_timeout_sec: DEFAULT_COMMAND_TIMEOUT_SEC,
  fresh_container: false,
  limits: DEFAULT_LIMITS,
  sampling: { temperature: 0 },
};

describe('comparability', () => {
  it('default limits, timeouts and turns are comparable whatever k and early stop are', () => {
    expect(nonComparableReasons(defaults)).toEqual([]);
    expect(nonComparableReasons({ ...defaults, k: 10, early_stop: false })).toEqual([]);
  });

  it('every changed limit, timeout or turn cap is named', () => {
    expect(
      nonComparableReasons({
        ...defaults,
        max_turns: 5,
        command_timeout_sec: 10,
        limits: { memory_mb: 512, pids: 64, cpus: 1 },
      }),
    ).toEqual([
      'max_turns overridden to 5',
      'command timeout 10s',
      'memory 512 MiB',
      'pids limit 64',
      'cpus 1',
    ]);
  });

  it('a run on one tool-call channel (--tool-calls native|text) says so: it measures something else', () => {
    expect(nonComparableReasons({ ...defaults, tool_calls: 'text' })).toEqual(['text tool calls only']);
  });
});
