/** execute_command: a bash command in the agent's persistent shell directory. */

import type { ProcessLog } from '../../results/trial.js';
import type { ExecResult, ExecTrace } from '../../sandbox/types.js';
import type { ToolOutcome } from '../../trial/conditions/call-hook.js';
import { capHeadTail } from '../../util/text-cap.js';
import { processLogs } from './process-log.js';
import { type AgentTool, type DispatchLimits, stringArg } from './tool.js';

export const executeCommand: AgentTool<{ command: string }> = {
  spec: {
    name: 'execute_command',
    description:
      'Run a shell command (bash) in the sandbox. Files and the current directory persist between calls; ' +
      'environment variables do not. Returns the exit code, stdout and stderr.',
    parameters: {
      type: 'object',
      properties: { command: { type: 'string', description: 'The shell command to run.' } },
      required: ['command'],
    },
  },

  parse(args) {
    const command = stringArg(args, 'command');
    if (command === null || command.trim() === '')
      return {
        ok: false,
        message:
          'Error: execute_command requires a non-empty string argument "command". Nothing was run; resend the call with {"command": "..."}.',
      };
    return { ok: true, args: { command } };
  },

  async run({ command }, sandbox, limits) {
    const r = await sandbox.runCommand(command, limits.commandTimeoutMs);
    const timeoutNote = `The command timed out after ${Math.round(limits.commandTimeoutMs / 1000)} s and was killed (with every process it started).`;
    const { log, reply } = commandOutcome(r, r.cwd, limits, timeoutNote);
    return {
      log: {
        ...log,
        ...(r.trace === undefined ? {} : traced(r.trace)),
        ...(r.aliveAfter === undefined ? {} : { alive_after: r.aliveAfter }),
      },
      reply,
    };
  },
};

/**
 * A command's result as the model is shown it and as it is logged (the same text: reads and test
 * observations are judged on it); `timeoutNote` is added to the reply when it timed out.
 */
export function commandOutcome(
  r: ExecResult,
  cwd: string,
  limits: DispatchLimits,
  timeoutNote: string,
): ToolOutcome {
  const stdout = capHeadTail(r.stdout, limits.modelStdoutChars);
  const stderr = capHeadTail(r.stderr, limits.modelStderrChars);
  const cut = r.stdoutCutBytes + r.stderrCutBytes + stdout.cutChars + stderr.cutChars;
  return {
    log: {
      cwd,
      invalid: null,
      exit_code: r.exitCode,
      stdout: stdout.text,
      stderr: stderr.text,
      truncated: cut > 0,
      timed_out: r.timedOut,
      elapsed_ms: r.elapsedMs,
    },
    reply: formatCommandReply(r.exitCode, stdout.text, stderr.text) + (r.timedOut ? `\n${timeoutNote}` : ''),
  };
}

function formatCommandReply(exitCode: number | null, stdout: string, stderr: string): string {
  let text = `exit_code: ${exitCode === null ? 'unknown' : exitCode}\nstdout:\n${stdout}`;
  if (stderr.trim() !== '') text += `\nstderr:\n${stderr}`;
  return text;
}

function traced(trace: ExecTrace): { processes: ProcessLog[]; trace_truncated: boolean } {
  const { processes, truncated } = processLogs(trace);
  return { processes, trace_truncated: truncated };
}
