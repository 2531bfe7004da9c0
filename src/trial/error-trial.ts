/** The record of a trial that could not be measured: an `error` trial, never the model's failure. */
import type { RequestFailure } from '../models/types.js';
import { type EventSink, trialEndEvent } from '../results/events.js';
import type { TrialError, TrialRecord, TurnLog } from '../results/trial.js';
import { unmeasuredTrial } from './trial-record.js';

export interface ErrorTrialFacts {
  index: number;
  startedAt: string;
  /** One line: what failed. */
  reason: string;
  error: TrialError;
  /** The turns that did happen, kept for the record (none when the harness failed before the first). */
  turnLogs?: TurnLog[];
  elapsedSec?: number;
  harnessSec?: number;
}

/** Not scored: no flags, score 0, and every summary leaves it out (src/run/aggregate.ts). */
export function errorTrial(f: ErrorTrialFacts): TrialRecord {
  return unmeasuredTrial({
    index: f.index,
    startedAt: f.startedAt,
    turnLogs: f.turnLogs ?? [],
    end: f.error.kind === 'harness' ? 'harness_error' : 'request_failed',
    elapsedSec: f.elapsedSec ?? 0,
    harnessSec: f.harnessSec ?? 0,
    reason: f.reason,
    error: f.error,
  });
}

/** The results' account of a request failure: its kind, and the numbers of a context overflow. */
function trialErrorOf(failure: RequestFailure): TrialError {
  if (failure.kind !== 'context_overflow') return { kind: failure.kind };
  return {
    kind: 'context_overflow',
    ...(failure.promptTokens === null ? {} : { prompt_tokens: failure.promptTokens }),
    ...(failure.contextSize === null ? {} : { context_size: failure.contextSize }),
  };
}

/**
 * The trial a request that got no reply ends (the model's server, or a simulated user's): what
 * happened is kept, nothing is judged or scored; its trial_end is emitted.
 */
export function requestFailedTrial(
  f: Omit<ErrorTrialFacts, 'reason' | 'error'> & { failure: RequestFailure; message: string },
  emit: EventSink,
): TrialRecord {
  const { failure, message, ...facts } = f;
  const record = errorTrial({
    ...facts,
    reason: `${failure.kind}: ${message}`,
    error: trialErrorOf(failure),
  });
  emit(trialEndEvent(record));
  return record;
}
