/**
 * What the dialogue driver needs of a task's mock environment: the tools it offers, and one call
 * at a time run against its state. The state lives in the harness, so the agent can change it only
 * through these calls; every call and every change it made is in the trial's record.
 */
import type { ToolSpec } from '../models/types.js';

export type EnvCall =
  /** Refused before running: no such tool, or arguments that do not fit its schema (`message` says what to resend). */
  | { kind: 'unknown_tool'; message: string }
  | { kind: 'bad_arguments'; message: string }
  /** It ran: `ok` false when the environment said no (no such ticket); `changes` in words, in order. */
  | { kind: 'ran'; ok: boolean; reply: string; changes: string[] };

export interface DialogueEnvironment {
  readonly tools: readonly ToolSpec[];
  call(name: string, args: Record<string, unknown>): EnvCall;
}
