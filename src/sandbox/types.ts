/**
 * The one narrow interface between the harness and a sandbox. The Docker implementation lives in
 * ./docker; tests may fake it.
 */
import type { ExecTrace } from './trace/records.js';

export type { ExecTrace, ProcessRecord, ProgramRun } from './trace/records.js';

/**
 * Who runs a command inside the sandbox: the model's unprivileged user (uid 1000), the harness as
 * root, or the harness's `checker` (uid 1001) for checks that run the agent's code: it can read
 * a staged copy of the workspace (stageForChecks) but neither change it nor reach /workspace.
 * Its HOME and TMPDIR are CHECKER_HOME, wiped at every reset.
 */
export type SandboxUser = 'agent' | 'checker' | 'root';

export interface ExecOptions {
  user?: SandboxUser;
  /** Working directory; defaults to /workspace (which the checker cannot enter: give it the staged copy). */
  cwd?: string;
  /** Hard limit enforced inside the container (timeout -s KILL on the process group). */
  timeoutMs?: number;
  /** Bytes fed to the command's stdin. */
  stdin?: Buffer;
  env?: Record<string, string>;
  /** Cap per stream on what is returned (head and tail kept). */
  maxOutputBytes?: number;
  /** Record what the command runs (result.trace). Agent commands are traced by default, execs not. */
  trace?: boolean;
}

export interface ExecResult {
  /** null when the process did not report an exit code (killed from the host side). */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Bytes cut from the middle of stdout/stderr by the output cap (0 when nothing was cut). */
  stdoutCutBytes: number;
  stderrCutBytes: number;
  timedOut: boolean;
  elapsedMs: number;
  /**
   * What really ran, from strace inside the sandbox: present when the command was traced (every
   * runCommand of a sandbox with tracing on; an exec with `trace: true`), absent otherwise.
   */
  trace?: ExecTrace;
}

/** Result of one agent shell command: an ExecResult plus the cwd the shell ended in. */
export interface CommandResult extends ExecResult {
  /** Directory the command started in. */
  cwd: string;
  /** Directory the command ended in (unchanged when it timed out or exited early). */
  cwdAfter: string;
}

export type ReadFileResult =
  | {
      ok: true;
      /** Absolute path that was read. */
      path: string;
      content: string;
      /** Total size of the file in bytes. */
      totalBytes: number;
      /** Byte offset of the returned part and whether more follows. */
      offset: number;
      truncated: boolean;
    }
  | { ok: false; path: string; error: string };

export type WriteFileResult =
  | { ok: true; path: string; bytes: number }
  | { ok: false; path: string; error: string };

/** path (relative to /workspace) -> entry. Symlinks are recorded as links, never followed. */
export type WorkspaceSnapshot = ReadonlyMap<string, SnapshotEntry>;

export type SnapshotEntry =
  | { kind: 'file'; sha256: string; size: number; mode: number }
  | { kind: 'symlink'; target: string }
  | { kind: 'dir'; mode: number };

/** What changed in the workspace between two looks at it (Sandbox.workspaceChanges). */
export interface WorkspaceChanges {
  /** Workspace-relative paths created, changed (content, mode, target, kind) or removed, sorted. */
  paths: string[];
  /** Harness time the snapshots behind it took, in the agent's commands or in an exec of their own. */
  snapshotMs: number;
}

export interface SandboxFile {
  /** Absolute path, or relative to /workspace. */
  path: string;
  content: string | Buffer;
  /** Defaults to 0o644. */
  mode?: number;
}

export interface Sandbox {
  /** Container id (or a fake's id). */
  readonly id: string;
  /** Current directory of the agent's shell; starts at /workspace, persists across commands. */
  readonly cwd: string;

  /** Runs a model's shell command as the agent user in the persistent cwd. */
  runCommand(command: string, timeoutMs: number): Promise<CommandResult>;
  /** Reads a file as the agent user; a relative path resolves against cwd. */
  readFile(path: string, range?: { offset?: number; limit?: number }): Promise<ReadFileResult>;
  /** Writes a file as the agent user, creating parent folders; a relative path resolves against cwd. */
  writeFile(path: string, content: string): Promise<WriteFileResult>;

  /** Harness-side exec (argv, no shell unless argv asks for one). */
  exec(argv: string[], options?: ExecOptions): Promise<ExecResult>;
  /** Copies files in (tar stream), owned by the agent user unless owner is root. */
  putFiles(files: SandboxFile[], options?: { owner?: SandboxUser }): Promise<void>;
  /** Copies files out: path -> bytes, for paths under root (absolute). Missing paths are absent. */
  getFiles(paths: string[]): Promise<Map<string, Buffer>>;
  /**
   * One exec: every entry under /workspace, every file read and hashed again (the listing tamper
   * is judged on). The next workspaceChanges reports changes from here.
   */
  snapshot(): Promise<WorkspaceSnapshot>;
  /**
   * What changed since the previous look (snapshot or workspaceChanges). Every agent command
   * snapshots the workspace inside its own exec as it ends, so after a command, with nothing run
   * since, this costs no exec; otherwise it takes a snapshot in one exec. Both read again only the
   * files that may have changed (sandbox/report/workspace_snapshot.py says how that is decided).
   */
  workspaceChanges(): Promise<WorkspaceChanges>;
  /** Kills every process of the agent user (background jobs included). */
  killAgentProcesses(): Promise<void>;
  /**
   * Kills every process in the sandbox whatever its user (the agent's, the checker's, daemons a
   * harness exec left as root), except the container's init and keeper.
   */
  killAllProcesses(): Promise<void>;
  /**
   * Copies /workspace (read-only mounts included) to a fresh directory under CHECKS_DIR and
   * returns its path: owned by root, dirs 0755, files 0644 (0755 if the owner could execute
   * them), whatever modes the agent set, symlinks kept as links, so `checker` can read and run
   * it but not change it. Agent processes still running may change the workspace mid-copy; kill
   * them first for a consistent copy. Copies live until the next reset.
   */
  stageForChecks(): Promise<string>;
  /**
   * Back to a clean state for the next trial: every process killed, /workspace, /tmp and the
   * checker's places wiped, cwd restored.
   */
  reset(): Promise<void>;
  /** Removes the container. Safe to call twice. */
  dispose(): Promise<void>;
}

/**
 * A host folder bind-mounted read-only into the sandbox, e.g. a skill at /workspace/skill. The
 * container path is a direct child of /workspace: snapshots skip it (it cannot change, so it is no
 * part of the tamper diff) and resets keep it (the mount point cannot be removed).
 */
export interface ReadOnlyMount {
  hostPath: string;
  containerPath: string;
}

/** Root-only directory (mode 0700 tmpfs) for harness files: hidden tests, check scripts. */
export const HARNESS_DIR = '/harness';
export const WORKSPACE_DIR = '/workspace';
/** Where stageForChecks puts its copies (root:checker 0750 tmpfs: out of the agent's sight). */
export const CHECKS_DIR = '/checks';
/** The checker's HOME and TMPDIR (its own 0700 tmpfs, out of the agent's reach). */
export const CHECKER_HOME = '/run/checker';
