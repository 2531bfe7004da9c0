/**
 * Runs one of the agent's tool calls against the task's environment and writes its log entry in
 * the shape every tool call has (the results format): a refused call has `invalid` set and no exit
 * code; one that ran has exit code 0, or 1 when the environment said no, and its JSON reply as stdout.
 * The trial's condition hook runs around the call: a fault answers instead of it (nothing ran), a
 * payload is added after its reply.
 */

import type { ParsedToolCall } from '../models/types.js';
import type { ToolCallLog } from '../results/trial.js';
import type { CallHook, ToolOutcome } from '../trial/conditions/call-hook.js';
import type { DialogueEnvironment } from './environment.js';

export interface EnvDispatch {
  log: ToolCallLog;
  /** What the model is shown. */
  reply: string;
  /** Set when the call ran. */
  ran: { ok: boolean; changes: string[] } | null;
}

export async function dispatchEnvCall(
  call: ParsedToolCall,
  env: DialogueEnvironment,
  hook: CallHook | undefined,
  turn: number,
): Promise<EnvDispatch> {
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
  const refused = (invalid: ToolCallLog['invalid'], message: string): ToolOutcome => ({
    log: { ...base, invalid, exit_code: null, stdout: '', stderr: message, elapsed_ms: 0 },
    reply: message,
  });
  const args = call.arguments;
  if (args === null) {
    const r = refused(
      'bad_arguments',
      `Error: the arguments of ${call.name} were not a JSON object. Resend the call with a JSON object of arguments.`,
    );
    return { log: { ...base, ...r.log }, reply: r.reply, ran: null };
  }
  const got: { ran: EnvDispatch['ran'] } = { ran: null };
  const run = async (): Promise<ToolOutcome> => {
    const outcome = env.call(call.name, args);
    if (outcome.kind === 'unknown_tool') return refused('unknown_tool', outcome.message);
    if (outcome.kind === 'bad_arguments') return refused('missing_argument', outcome.message);
    got.ran = { ok: outcome.ok, changes: outcome.changes };
    return {
      log: {
        invalid: null,
        exit_code: outcome.ok ? 0 : 1,
        stdout: outcome.ok ? outcome.reply : '',
        stderr: outcome.ok ? '' : outcome.reply,
        truncated: false,
        timed_out: false,
        elapsed_ms: Date.now() - started,
      },
      reply: outcome.reply,
    };
  };
  // The trial's condition (a fault instead of the call, a payload after its reply), as at the sandbox's tools.
  const outcome =
    hook === undefined ? await run() : await hook({ name: call.name, arguments: args, cwd: '', turn }, run);
  return { log: { ...base, ...outcome.log }, reply: outcome.reply, ran: got.ran };
}
