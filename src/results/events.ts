import type { TrialRecord } from './trial.js';

/** Events the loop emits while a trial runs; the runner appends them to events.jsonl (one LoggedEvent a line). */
export type TrialEvent =
  | { type: 'trial_start'; trial: number }
  | {
      type: 'model_reply';
      trial: number;
      turn: number;
      text: string;
      tool_calls: number;
      latency_ms: number;
      retries: number;
    }
  | { type: 'model_error'; trial: number; turn: number; error: string }
  | {
      type: 'tool_call';
      trial: number;
      turn: number;
      name: string;
      /** The command or path, shortened. */
      arg: string;
      exit_code: number | null;
      invalid: string | null;
      source: 'native' | 'text';
    }
  | { type: 'trial_end'; trial: number; status: string; passed: boolean; score: number; turns: number };

export type EventSink = (event: TrialEvent) => void;

/** The event that closes a trial, from its record: what the progress line and the dashboard show. */
export function trialEndEvent(
  r: Pick<TrialRecord, 'index' | 'status' | 'passed' | 'score' | 'turns'>,
): TrialEvent {
  return {
    type: 'trial_end',
    trial: r.index,
    status: r.status,
    passed: r.passed,
    score: r.score,
    turns: r.turns,
  };
}

/** One line of <results>/events.jsonl. */
export interface LoggedEvent {
  ts: string;
  run_id: string;
  task: string;
  model: string;
  event: TrialEvent;
}
