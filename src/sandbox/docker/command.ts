/**
 * The agent's shell tool. Each call is a fresh `bash` (environment variables do not persist), but
 * the working directory does: on exit (an EXIT trap) the shell writes `pwd` to the file the
 * wrapper opened as fd 3, and the next call starts there. The trap runs inside the timed process
 * group, so a command killed by its timeout reports nothing and the directory stays as it was.
 */
import { tool } from '../tools.js';
import { type CommandResult, WORKSPACE_DIR } from '../types.js';

// $1: directory to start in, $2: the command. fd 3 moves to a free fd >= 10 so that the
// command's own `exec 3>file` cannot swallow the cwd report.
const SHELL_SCRIPT = `if ! cd -- "$1" 2>/dev/null; then
  printf 'agent-bench: directory %s is gone; running in ${WORKSPACE_DIR}\\n' "$1" >&2
  cd ${WORKSPACE_DIR} || exit 1
fi
exec {__agent_bench_cwd_fd}>&3 3>&-
__agent_bench_command=$2
set --
trap 'pwd >&"$__agent_bench_cwd_fd"' EXIT
eval "$__agent_bench_command"
`;

/** argv running `command` as a bash script in `cwd`, for a managed exec with trackCwd. */
export function shellArgv(command: string, cwd: string): string[] {
  return [tool('bash'), '-c', SHELL_SCRIPT, 'bash', cwd, command];
}

/** The result of a command refused before it ran; traced or not, nothing ran. */
export function notRun(cwd: string, why: string, traced: boolean): CommandResult {
  return {
    exitCode: null,
    stdout: '',
    stderr: `agent-bench: ${why} and was not run`,
    stdoutCutBytes: 0,
    stderrCutBytes: 0,
    timedOut: false,
    elapsedMs: 0,
    cwd,
    cwdAfter: cwd,
    ...(traced ? { trace: { processes: [], truncated: false } } : {}),
  };
}
