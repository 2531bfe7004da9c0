/**
 * Runs one of the agent's tool calls against the task's environment and writes its log entry in
 * the shape every tool call has (the results format): a refused call has `invalid` set and no exit
 * code; one that ran has exit code 0, or 1 when the environment said no, and its JSON reply as stdout.
 */
import type { ParsedToolCall } from '../models/types.js';
import type { ToolCallLog } from '../results/trial.js';
import type { DialogueEnvironment } from './environment.js';

export interface EnvDispatch {
  log: ToolCallLog;
  /** What the model is shown. */
  reply: string;
  /** Set when the call ran. */
  ran: { ok: boolean; changes: string[] } | null;
}

export function dispatchEnvCall(call: ParsedToolCall, env: DialogueEnvironment): EnvDispatch {
  const started = Date.now();
  const base = {
    name: call.name,
    arguments: call.arguments,
    raw_arguments: call.rawArguments,
    source: call.source,
    // No shell: the environment lives in the harness.
    cwd: '',
    truncated: false,
    timed_out: false,
  };
  const refused = (invalid: ToolCallLog['invalid'], message: string): EnvDispatch => ({
    log: { ...base, invalid, exit_code: null, stdout: '', stderr: message, elapsed_ms: 0 },
    reply: message,
    ran: null,
  });
  if (call.arguments === null)
    return refused(
      'bad_arguments',
      `Error: the arguments of ${call.name} were not a JSON object. Resend the call with a JSON object of arguments.`,
    );
  const outcome = env.call(call.name, call.arguments);
  if (outcome.kind === 'unknown_tool') return refused('unknown_tool', outcome.message);
  if (outcome.kind === 'bad_arguments') return refused('missing_argument', outcome.message);
  return {
    log: {
      ...base,
      invalid: null,
      exit_code: outcome.ok ? 0 : 1,
      stdout: outcome.ok ? outcome.reply : '',
      stderr: outcome.ok ? '' : outcome.reply,
      elapsed_ms: Date.now() - started,
    },
    reply: outcome.reply,
    ran: { ok: outcome.ok, changes: outcome.changes },
  };
}
