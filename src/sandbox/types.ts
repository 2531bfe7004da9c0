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
  /**
   * Pids of the agent's processes still running once the command returned (its background jobs,
   * or an earlier command's): what causality dates changes by (src/scoring/ordering.ts). Absent
   * when the sandbox could not look.
   */
  aliveAfter?: number[];
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

/**
 * The Docker sandbox's calls throw, besides bad arguments: ExecStalled (an exec missed its
 * deadline while the container ran: `user` says whose, `engineAnswered` whether the engine still
 * answers, i.e. whether the stall was inside the container), ContainerGoneError (the container
 * stopped or went away), EngineStalled (an engine call got no answer in time), all InfraErrors. After
 * any of them the container is replaced at the next reset.
 */
export interface Sandbox {
  /** Container id (or a fake's id). */
  readonly id: string;
  /** Current directory of the agent's shell; starts at /workspace, persists across commands. */
  readonly cwd: string;

  /** Runs a model's shell command as the agent user in the persistent cwd. */
  runCommand(command: string, timeoutMs: number): Promise<CommandResult>;
  /**
   * Reads a file with the agent user's permissions (the kernel decides as for its shell), in a
   * process the agent cannot signal; a relative path resolves against cwd. Directories, FIFOs and
   * devices are refused without being opened.
   */
  readFile(path: string, range?: { offset?: number; limit?: number }): Promise<ReadFileResult>;
  /**
   * Writes a file with the agent user's permissions, as readFile, creating parent folders; an
   * existing file keeps its mode, a symlink or FIFO at the path is replaced (never followed or
   * opened); a relative path resolves against cwd.
   */
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
  /** Kills every process of the agent user (background jobs included), from root. */
  killAgentProcesses(): Promise<void>;
  /**
   * Once the agent's processes are killed: the traces of the background jobs its commands left,
   * followed to their end, one per command that left traced jobs (from the command's start, so
   * paths resolve as in its own trace). Read once; [] when none was left or nothing is traced.
   */
  followedTraces(): Promise<ExecTrace[]>;
  /**
   * Kills every process in the sandbox whatever its user (the agent's, the checker's, daemons a
   * harness exec left as root), except the container's init and keeper and the harness's exec
   * relay (root's, out of the agent's reach).
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
  /**
   * Starts a process whose stdin and stdout stay open (an MCP server over stdio). Absent in a
   * sandbox that cannot keep one (a test's fake): tasks that need it cannot run there.
   */
  spawn?(argv: readonly string[], options: SpawnOptions): Promise<SandboxProcess>;
}

export interface SpawnOptions {
  user: SandboxUser;
  cwd: string;
  env?: Record<string, string>;
}

/** A process started by Sandbox.spawn. */
export interface SandboxProcess {
  write(bytes: string | Buffer): Promise<void>;
  /** Its stdout, ended when it exits. */
  readonly stdout: NodeJS.ReadableStream;
  /** The end of what it wrote to stderr so far. */
  stderrTail(): string;
  /** Resolves once it ended (or its stream was cut). */
  readonly exited: Promise<void>;
  /** Cuts the stream (its stdin closes); resolves once it ended. */
  end(): Promise<void>;
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

/**
 * A Harbor task's environment: a sandbox with another image and another verifier (src/sandbox/harbor/).
 * Its loader (src/catalogue/harbor/) reads it from the task's folder; `id`, the task's, names
 * its images, labels and messages.
 */
export interface HarborEnvironmentSpec {
  id: string;
  image: HarborImageSource;
  /** Where solve.sh and test.sh run in the task's own image: task.toml's workdir, else its Dockerfile's last WORKDIR, else `/`. */
  workdir: string;
  /**
   * task.toml's `[environment] workdir`: the agent's working directory, over the image's own WORKDIR
   * (which a model's sandbox takes from the engine when the task declares none).
   */
  declaredWorkdir?: string;
  /** task.toml's resources, for a trial's container. */
  resources: { cpus: number; memoryMb: number };
  /**
   * tests/: test.sh and its files, copied in only to verify, run as root with these variables; in
   * `image`'s container when the task has a separate verifier (tests/ built, or a named image).
   * A separate verifier gets a read-only copy of the agent's work: `artifacts` (paths relative to
   * the workdir, task.toml's declared ones) when set, else the whole workdir.
   */
  verifier: HarborScripts & {
    env: Record<string, string>;
    image?: HarborImageSource;
    artifacts?: readonly string[];
  };
  /** solution/: solve.sh and its files, the oracle (no files: the task has none), run with these variables. */
  oracle: HarborScripts & { env?: Record<string, string> };
  /** environment/docker-compose.yaml's sidecars, run as a pod around every container of the task's. */
  services?: PodSpec;
}

/** A folder of a Harbor task's scripts (files relative to it), and how long they may run. */
export interface HarborScripts {
  dir: string;
  files: readonly string[];
  timeoutSec: number;
}

/** The task's own image: task.toml's docker_image (already on this machine), or its Dockerfile built. */
export type HarborImageSource =
  | { kind: 'prebuilt'; image: string }
  | {
      kind: 'dockerfile';
      /** environment/: the build context. */
      contextDir: string;
      /** sha256 of the context: with baseImage, the key the built image is cached under. */
      contextDigest: string;
      /**
       * The Dockerfile built in place of the context's own (its FROMs set to baseImage when given),
       * rewritten for the engine's classic builder, or why it cannot be: a build never starts then.
       */
      dockerfile: ClassicDockerfile;
      /** How messages name the Dockerfile (default environment/Dockerfile): a sidecar's is another. */
      dockerfileName?: string;
      /** The last stage's FROM as the task wrote it: what a failed pull names. */
      from: string;
      /** `--base-image`: the local image the Dockerfile was set on. */
      baseImage?: string;
      buildTimeoutSec: number;
      /** task.toml allows internet: the build gets a network (a trial never does). */
      network: boolean;
    };

/** A Dockerfile without BuildKit-only syntax (heredocs as files of the context), or why it cannot be had. */
export type ClassicDockerfile =
  | {
      ok: true;
      text: string;
      /** Files the rewrite adds to the build context. */
      files: readonly ContextFile[];
      /** What was rewritten or dropped, for the build's progress line. */
      notes: readonly string[];
    }
  | { ok: false; problem: string };

export interface ContextFile {
  /** Relative to the context's root. */
  path: string;
  content: string;
  mode: number;
}

/** A verifier's reward as Harbor reads it (reward.txt, else reward.json), or why there is none. */
export type HarborReward =
  | {
      ok: true;
      reward: number;
      /** reward.json's named metrics, all of them (none for reward.txt). */
      metrics: Record<string, number>;
      /** Set when reward.json has several metrics and none named `reward`: `reward` is their mean. */
      mean?: true;
    }
  | { ok: false; problem: string };

/** One run of tests/test.sh. */
export interface HarborVerifierRun {
  reward: HarborReward;
  exitCode: number | null;
  /** It ran out of its timeout (task.toml verifier.timeout_sec). */
  timedOut: boolean;
  /**
   * Why the reward was refused as possibly forged (a process left test.sh's tree or outlived it,
   * the verifier's supervisor was stopped or killed; src/sandbox/harbor/verifier.ts has the
   * rule), or null. When set, the reward is 0: the trial fails, for this reason.
   */
  tampered: string | null;
  /** What it printed, stdout and stderr as they came, its last 4 KiB (HARBOR_OUTPUT_TAIL). */
  output: string;
}

/** How much of a Harbor script's output is kept: the end, where its failure is. */
export const HARBOR_OUTPUT_TAIL = 4096;

/** The image a Harbor task's sandbox opens from, and the volume of harness tools its containers mount. */
export interface HarborSandboxImage {
  image: string;
  toolsVolume: string;
}

/**
 * A Harbor environment on the engine (openHarborEnvironment): its images are built on first use and
 * kept, its verifier runs for a trial in a fresh container apart from the agent's sandbox, and its
 * oracle is the task's reference agent in the trial's sandbox.
 */
export interface HarborEnvironment {
  /** Run as the agent in /workspace before a model's trial: the task's WORKDIR, as its image has it. */
  readonly setupCommands: readonly string[];
  /** The task's own image: pre-built, or its Dockerfile built once (cached by content). */
  taskImage(onProgress?: (line: string) => void): Promise<string>;
  /** The task's image fitted to the sandbox (createDockerSandbox): a model's trials start from it. */
  sandboxImage(onProgress?: (line: string) => void): Promise<HarborSandboxImage>;
  /**
   * The verifier of a model trial's sandbox (opened from sandboxImage) once the agent's last turn
   * is over: every process in the sandbox killed, then test.sh run in a fresh container of the same
   * image holding a copy of the final workspace (never in the sandbox), its reward read once its
   * process tree is gone.
   */
  verify(sandbox: Sandbox): Promise<HarborVerifierRun>;
  /**
   * The oracle in a model trial's sandbox (`--model oracle`), as Harbor runs it: solution/ copied to
   * /solution (root-only: a model never sees it), solve.sh run by bash as root in the image's
   * WORKDIR under task.toml's agent timeout.
   */
  runOracle(sandbox: Sandbox): Promise<ExecResult>;
}

// A task's services (src/sandbox/services/): sidecar containers sharing the agent's container's
// network namespace (a pod), each reached by its name on 127.0.0.1. Both task formats read into
// these: Harbor's environment/docker-compose.yaml and a native task.toml's [[services]].

/** Docker's healthcheck, its durations in milliseconds (compose's defaults filled in). */
export interface HealthCheck {
  /** `['CMD', prog, ...args]` or `['CMD-SHELL', 'a shell line']`, as compose and the engine take it. */
  test: readonly string[];
  intervalMs: number;
  timeoutMs: number;
  retries: number;
  startPeriodMs: number;
}

/** One service as declared, its image not yet resolved (a build is a folder of the task's). */
export interface ServiceDecl {
  /** The service's name: what the agent and the other services reach it by. */
  name: string;
  image: { kind: 'image'; image: string } | { kind: 'build'; context: string; dockerfile: string };
  /** The TCP ports it listens on (in the pod's one network namespace: two services cannot share one). */
  expose: readonly number[];
  environment: Readonly<Record<string, string>>;
  /** Overrides the image's CMD. */
  command?: readonly string[];
  /** Overrides the image's ENTRYPOINT. */
  entrypoint?: readonly string[];
  /** Who it runs as (compose `user`); default 65534:65534, nobody (docs/services.md). */
  user?: string;
  workingDir?: string;
  /** Writable directories (tmpfs) in its otherwise read-only filesystem, besides /tmp. */
  tmpfs: readonly string[];
  healthcheck?: HealthCheck;
  /** Services that must be healthy (or, without a healthcheck, running) before this one starts. */
  dependsOn: readonly string[];
  /**
   * Kept running from one trial to the next instead of being started afresh: for a service whose
   * state a trial cannot change (a read-only API). Default false: every trial gets a clean one.
   */
  stateless: boolean;
}

/** A service ready to run: its image is a tag on the engine, or a Dockerfile to build (once). */
export interface ServiceSpec extends Omit<ServiceDecl, 'image'> {
  image: HarborImageSource;
}

/** The pod's services in start order (podOrder), under the task's id (their images' and labels' name). */
export interface PodSpec {
  taskId: string;
  services: readonly ServiceSpec[];
}
