/**
 * One tool the model may call: its published spec, how its arguments are parsed, and how it runs.
 * Each tool lives in its own module; src/agent/tools/registry.ts lists them, and the tool specs, the
 * tool names and the prompt sentence about them all come from that list.
 */
import type { ToolSpec } from '../../models/types.js';
import type { Sandbox } from '../../sandbox/types.js';
import type { ToolOutcome } from '../../trial/conditions/call-hook.js';

export interface DispatchLimits {
  commandTimeoutMs: number;
  /** Characters of stdout / stderr shown to the model (head and tail kept). */
  modelStdoutChars: number;
  modelStderrChars: number;
  /** Bytes returned by one read_file call. */
  readLimitBytes: number;
}

/** Arguments as the tool needs them, or what the model must resend (nothing ran). */
export type ParsedArgs<A> = { ok: true; args: A } | { ok: false; message: string };

export interface AgentTool<A> {
  spec: ToolSpec;
  parse(args: Record<string, unknown>): ParsedArgs<A>;
  run(args: A, sandbox: Sandbox, limits: DispatchLimits): Promise<ToolOutcome>;
}

export function stringArg(args: Record<string, unknown>, key: string): string | null {
  const v = args[key];
  return typeof v === 'string' ? v : null;
}

export function intArg(args: Record<string, unknown>, key: string): number | null {
  const v = args[key];
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : null;
}

/** A file tool that ran and failed (missing file, permission): exit 1, the error shown as it is. */
export function fileError(error: string, elapsed_ms: number): ToolOutcome {
  return {
    log: {
      invalid: null,
      exit_code: 1,
      stdout: '',
      stderr: error,
      truncated: false,
      timed_out: false,
      elapsed_ms,
    },
    reply: `Error: ${error}`,
  };
}
