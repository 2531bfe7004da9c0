/**
 * What one command really ran, as the kernel saw it: strace inside the sandbox, as root and out of
 * the agent's reach (sandbox/exec-wrapper.sh), parsed on the host (./parse.ts). Paths are absolute,
 * resolved lexically against the process's working directory (symlinks are not followed).
 */

/** The trace of one command. Absent from a result when the command was not traced. */
export interface ExecTrace {
  /**
   * The command's own shell first (for an agent command: bash running the harness's shell
   * script, the command text as its last argument), then every process that ran a program, in
   * the order they started it. A process that only forked (a subshell, one side of a pipeline
   * running a builtin) has no record: what it did is its nearest recorded ancestor's.
   */
  processes: ProcessRecord[];
  /** The trace reached its size cap: the tracer stopped, later programs and files are missing. */
  truncated: boolean;
}

/** One successful execve. null where the kernel would not let the tracer read it. */
export interface ProgramRun {
  /** The file executed, as named to execve and made absolute (a script, not its interpreter). */
  exe: string | null;
  argv: string[] | null;
  /** Working directory at the exec; null when a change of directory could not be followed. */
  cwd: string | null;
  /**
   * The file whose content the program's standard input gave it from its start, with nothing else
   * reading or seeking that input: fd 0 open on the file (`bash < x.sh`), or a pipe that `cat FILE`
   * fed with exactly that file and that only this program read, to its end (`cat x.sh | bash`).
   * null for anything else: a terminal, /dev/null, an input another process read first (`( read l;
   * exec bash ) < x.sh`), a pipe fed by another program or by more than the file (stdin.ts).
   */
  stdin: string | null;
}

/**
 * One process (not thread) that ran at least one program. exe/argv/cwd/stdin are its last program;
 * a process that exec'd several times (`bash -c 'exec python3 x.py'`) lists them all in `runs`.
 */
export interface ProcessRecord extends ProgramRun {
  pid: number;
  /** pid of the nearest recorded ancestor; null for the first record (the command's shell). */
  parentPid: number | null;
  runs: ProgramRun[];
  /** Set when it exited; both null when it was still running (or the trace was cut) at the end. */
  exitCode: number | null;
  /** Name of the signal that killed it, e.g. 'SIGKILL'. */
  signal: string | null;
  /** Files it opened successfully, each (path, write) once, in first-open order. */
  opens: FileOpen[];
  /** Files and directories it removed (unlink, unlinkat, rmdir). */
  removed: string[];
  renamed: { from: string; to: string }[];
}

export interface FileOpen {
  path: string;
  /** Opened for writing, creating, truncating or appending. */
  write: boolean;
}
