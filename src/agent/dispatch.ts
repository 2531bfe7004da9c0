/**
 * Runs one tool call against the sandbox and turns the outcome into (a) the log entry stored in the
 * results and (b) the message the model sees. Refusals (unknown tool, bad or missing arguments) are
 * answered with an error that says exactly what to resend.
 */
import type { ParsedToolCall } from '../models/types.js';
import type { InvalidCallReason, ToolCallLog } from '../results/trial.js';
import type { Sandbox } from '../sandbox/types.js';
import type { CallHook } from '../trial/conditions/call-hook.js';
import { BUILTIN_TOOLS, findTool, type RegisteredTool } from './tools/registry.js';
import type { DispatchLimits } from './tools/tool.js';

export interface DispatchOutcome {
  log: ToolCallLog;
  /** Content of the tool message sent back to the model. */
  reply: string;
}

export async function dispatchToolCall(
  call: ParsedToolCall,
  sandbox: Sandbox,
  limits: DispatchLimits,
  hook: CallHook | undefined,
  turn: number,
  tools: readonly RegisteredTool[] = BUILTIN_TOOLS,
): Promise<DispatchOutcome> {
  const base = {
    name: call.name,
    arguments: call.arguments,
    raw_arguments: call.rawArguments,
    source: call.source,
    cwd: sandbox.cwd,
  };
  const refuse = (invalid: InvalidCallReason, message: string): DispatchOutcome => ({
    log: {
      ...base,
      invalid,
      exit_code: null,
      stdout: '',
      stderr: message,
      truncated: false,
      timed_out: false,
      elapsed_ms: 0,
    },
    reply: message,
  });

  const tool = findTool(call.name, tools);
  if (tool === undefined)
    return refuse(
      'unknown_tool',
      `Error: unknown tool '${call.name}'. The valid tools are: ${tools.map((t) => t.spec.name).join(', ')}.`,
    );
  if (call.arguments === null)
    return refuse(
      'bad_arguments',
      `Error: the arguments of ${call.name} were not a JSON object. Resend the call with a JSON object of arguments.`,
    );
  const prepared = tool.prepare(call.arguments, sandbox, limits);
  if (!prepared.ok) return refuse('missing_argument', prepared.message);
  const outcome =
    hook === undefined
      ? await prepared.args()
      : await hook({ name: call.name, arguments: call.arguments, cwd: sandbox.cwd, turn }, prepared.args);
  return { log: { ...base, ...outcome.log }, reply: outcome.reply };
}
