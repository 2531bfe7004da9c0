/** What one recorded trial means for its task and the run. */
import { describe, expect, it } from 'vitest';
import type { TrialError } from '../../src/results/trial.js';
import { trialConsequence } from '../../src/run/run-task.js';
import { errorTrial } from '../../src/trial/error-trial.js';

const errored = (kind: TrialError['kind']) =>
  errorTrial({ index: 0, startedAt: '2026-01-01T00:00:00Z', reason: kind, error: { kind } as TrialError });

describe('trialConsequence', () => {
  it('stops the run on a failure no later trial can get past, even the first', () => {
    for (const kind of [
      'unreachable',
      'server_error',
      'model_not_found',
      'unauthorized',
      'rejected',
    ] as const)
      expect(trialConsequence(errored(kind), 1)).toBe('stop_run');
  });

  it('ends the task after two error trials in a row, and goes on after one', () => {
    expect(trialConsequence(errored('harness'), 1)).toBe('go_on');
    expect(trialConsequence(errored('harness'), 2)).toBe('end_task');
  });

  it('lets a context overflow end only its own trial', () => {
    expect(trialConsequence(errored('context_overflow'), 1)).toBe('go_on');
  });
});
