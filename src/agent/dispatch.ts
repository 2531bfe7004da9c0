/**
 * Runs one tool call against the sandbox and turns the outcome into (a) the log entry stored in the
 * results and (b) the message the model sees. Refusals (unknown tool, bad or missing arguments) are
 * answered with an error that says exactly what to resend.
 */
import type { ParsedToolCall } from '../models/types.js';
import type { InvalidCallReason, ToolCallLog } from '../results/trial.js';
import type { Sandbox } from '../sandbox/types.js';
import { capHeadTail } from '../util/text-cap.js';
import { VALID_TOOLS_LIST } from './tool-specs.js';

export interface DispatchLimits {
  commandTimeoutMs: number;
  /** Characters of stdout / stderr shown to the model (head and tail kept). */
  modelStdoutChars: number;
  modelStderrChars: number;
  /** Characters of stdout / stderr kept in the results file. */
  storedOutputChars: number;
  /** Bytes returned by one read_file call. */
  readLimitBytes: number;
}

export interface DispatchOutcome {
  log: ToolCallLog;
  /** Content of the tool message sent back to the model. */
  reply: string;
}

export async function dispatchToolCall(
  call: ParsedToolCall,
  sandbox: Sandbox,
  limits: DispatchLimits,
): Promise<DispatchOutcome> {
  const base = {
    name: call.name,
    arguments: call.arguments,
    raw_arguments: call.rawArguments,
    source: call.source,
    cwd: sandbox.cwd,
  };
  // A file tool that ran and failed (missing file, permission): exit 1, the error shown as it is.
  const fileError = (error: string, elapsed_ms: number): DispatchOutcome => ({
    log: {
      ...base,
      invalid: null,
      exit_code: 1,
      stdout: '',
      stderr: error,
      truncated: false,
      timed_out: false,
      elapsed_ms,
    },
    reply: `Error: ${error}`,
  });
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

  if (call.name !== 'execute_command' && call.name !== 'read_file' && call.name !== 'write_file') {
    return refuse(
      'unknown_tool',
      `Error: unknown tool '${call.name}'. The valid tools are: ${VALID_TOOLS_LIST}.`,
    );
  }
  const args = call.arguments;
  if (args === null) {
    return refuse(
      'bad_arguments',
      `Error: the arguments of ${call.name} were not a JSON object. Resend the call with a JSON object of arguments.`,
    );
  }

  switch (call.name) {
    case 'execute_command': {
      const command = stringArg(args, 'command');
      if (command === null || command.trim() === '') {
        return refuse(
          'missing_argument',
          'Error: execute_command requires a non-empty string argument "command". Nothing was run; resend the call with {"command": "..."}.',
        );
      }
      const r = await sandbox.runCommand(command, limits.commandTimeoutMs);
      const stdout = capHeadTail(r.stdout, limits.modelStdoutChars);
      const stderr = capHeadTail(r.stderr, limits.modelStderrChars);
      const stored = {
        out: capHeadTail(r.stdout, limits.storedOutputChars),
        err: capHeadTail(r.stderr, limits.storedOutputChars),
      };
      const cut =
        r.stdoutCutBytes +
        r.stderrCutBytes +
        stdout.cutChars +
        stderr.cutChars +
        stored.out.cutChars +
        stored.err.cutChars;
      const timeoutNote = r.timedOut
        ? `\nThe command timed out after ${Math.round(limits.commandTimeoutMs / 1000)} s and was killed (with every process it started).`
        : '';
      return {
        log: {
          ...base,
          cwd: r.cwd,
          invalid: null,
          exit_code: r.exitCode,
          stdout: stored.out.text,
          stderr: stored.err.text,
          truncated: cut > 0,
          timed_out: r.timedOut,
          elapsed_ms: r.elapsedMs,
        },
        reply: formatCommandReply(r.exitCode, stdout.text, stderr.text) + timeoutNote,
      };
    }
    case 'read_file': {
      const path = stringArg(args, 'path');
      if (path === null || path.trim() === '') {
        return refuse(
          'missing_argument',
          'Error: read_file requires a string argument "path". Resend the call with {"path": "..."}.',
        );
      }
      const offset = intArg(args, 'offset') ?? 0;
      const limit = Math.min(intArg(args, 'limit') ?? limits.readLimitBytes, limits.readLimitBytes);
      const started = Date.now();
      const r = await sandbox.readFile(path, { offset, limit });
      const elapsed_ms = Date.now() - started;
      if (!r.ok) {
        return fileError(r.error, elapsed_ms);
      }
      const end = r.offset + Buffer.byteLength(r.content);
      const note = r.truncated
        ? `\n[read_file: showing bytes ${r.offset}-${end} of ${r.totalBytes}. Call read_file with {"path": ${JSON.stringify(path)}, "offset": ${end}} to read more.]`
        : '';
      const stored = capHeadTail(r.content, limits.storedOutputChars);
      return {
        log: {
          ...base,
          invalid: null,
          exit_code: 0,
          stdout: stored.text,
          stderr: '',
          truncated: r.truncated || stored.cutChars > 0,
          timed_out: false,
          elapsed_ms,
        },
        reply: r.content + note,
      };
    }
    case 'write_file': {
      const path = stringArg(args, 'path');
      const content = args.content;
      if (path === null || path.trim() === '') {
        return refuse(
          'missing_argument',
          'Error: write_file requires a string argument "path" (e.g. {"path": "main.py", "content": "..."}). ' +
            'Your content was NOT saved: call write_file again with both "path" and "content".',
        );
      }
      if (typeof content !== 'string') {
        return refuse(
          'missing_argument',
          'Error: write_file requires a string argument "content" with the complete file text. Nothing was saved: ' +
            'call write_file again with both "path" and "content".',
        );
      }
      const started = Date.now();
      const r = await sandbox.writeFile(path, content);
      const elapsed_ms = Date.now() - started;
      if (!r.ok) {
        return fileError(r.error, elapsed_ms);
      }
      const message = `Wrote ${r.bytes} bytes to ${r.path}.`;
      return {
        log: {
          ...base,
          invalid: null,
          exit_code: 0,
          stdout: message,
          stderr: '',
          truncated: false,
          timed_out: false,
          elapsed_ms,
        },
        reply: message,
      };
    }
  }
}

function formatCommandReply(exitCode: number | null, stdout: string, stderr: string): string {
  let text = `exit_code: ${exitCode === null ? 'unknown' : exitCode}\nstdout:\n${stdout}`;
  if (stderr.trim() !== '') text += `\nstderr:\n${stderr}`;
  return text;
}

function stringArg(args: Record<string, unknown>, key: string): string | null {
  const v = args[key];
  return typeof v === 'string' ? v : null;
}

function intArg(args: Record<string, unknown>, key: string): number | null {
  const v = args[key];
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : null;
}
