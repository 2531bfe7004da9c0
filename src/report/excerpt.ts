/**
 * A short, readable excerpt of one trial's transcript for the model card: the first turn where something
 * went wrong plus the last turns, each call with its argument, exit code and the tail of its output.
 */
import type { ToolCallLog, TrialRecord, TurnLog } from '../results/trial.js';
import { clip } from './format.js';

interface ExcerptCall {
  name: string;
  arg: string;
  exit_code: number | null;
  invalid: string | null;
  timed_out: boolean;
  output_tail: string;
}

interface ExcerptTurn {
  turn: number;
  text: string;
  calls: ExcerptCall[];
  /** Dialogue tasks: what the simulated user answered this turn's message (null: no user turn). */
  user: string | null;
}

export interface TrialExcerpt {
  trial: number;
  failure_reason: string | null;
  tamper_violations: string[];
  missed_flags: string[];
  turns: ExcerptTurn[];
  /** Turns of the transcript not shown. */
  omitted_turns: number;
  final_answer: string | null;
}

const MAX_TURNS = 4;

export function trialExcerpt(trial: TrialRecord): TrialExcerpt {
  const logs = trial.turn_logs;
  const trouble = logs.find(isTrouble);
  const picked = new Set<TurnLog>(logs.slice(-(MAX_TURNS - 1)));
  if (trouble !== undefined) picked.add(trouble);
  const turns = logs.filter((t) => picked.has(t)).slice(-MAX_TURNS);
  return {
    trial: trial.index,
    failure_reason: trial.failure_reason,
    tamper_violations: trial.tamper_violations.slice(0, 5),
    missed_flags: Object.entries(trial.flags)
      .filter(([, f]) => !f.reached)
      .map(([id]) => id),
    turns: turns.map((t) => ({
      turn: t.turn,
      text: clip(t.assistant_text.trim(), 400),
      calls: t.tool_calls.map(toCall),
      user: t.user_reply === undefined ? null : clip(t.user_reply.text.trim(), 400),
    })),
    omitted_turns: logs.length - turns.length,
    final_answer: trial.final_answer === null ? null : clip(trial.final_answer.trim(), 400),
  };
}

function isTrouble(t: TurnLog): boolean {
  return (
    t.malformed !== null ||
    t.tool_calls.some((c) => c.invalid !== null || c.timed_out || (c.exit_code ?? 0) !== 0)
  );
}

function toCall(c: ToolCallLog): ExcerptCall {
  const failed = c.exit_code !== null && c.exit_code !== 0;
  const output = failed && c.stderr.trim() !== '' ? c.stderr : c.stdout || c.stderr;
  return {
    name: c.name,
    arg: clip(callArgument(c), 200),
    exit_code: c.exit_code,
    invalid: c.invalid,
    timed_out: c.timed_out,
    output_tail: clip(tailLines(output, 6), 600),
  };
}

/** The part of a call a reader recognises: the command, or the path, or the raw arguments. */
function callArgument(c: Pick<ToolCallLog, 'arguments' | 'raw_arguments'>): string {
  const args = c.arguments;
  if (args !== null) {
    for (const key of ['command', 'path']) {
      const v = args[key];
      if (typeof v === 'string') return v;
    }
  }
  return c.raw_arguments;
}

function tailLines(text: string, n: number): string {
  const lines = text.replace(/\s+$/, '').split('\n');
  return (lines.length > n ? ['…', ...lines.slice(-n)] : lines).join('\n');
}
