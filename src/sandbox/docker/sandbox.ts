/**
 * DockerSandbox: one hardened container per (task, model) run, reused across trials and reset
 * between them. A container that died, or whose exec outlived the host-side backstop (a process
 * may still run in it), is "tainted" and replaced by a fresh one at the next reset. One whose exec
 * or engine call missed its deadline is also abandoned at once: its removal starts in the
 * background (with a deadline of its own; a container that outlives it stays labelled for
 * `sweep`), and nothing waits on it again.
 */
import type Docker from 'dockerode';
import { InfraError } from '../../util/errors.js';
import { ServicePod } from '../services/pod.js';
import {
  type CommandResult,
  type ExecOptions,
  type ExecResult,
  type ExecTrace,
  type ReadFileResult,
  type Sandbox,
  type SandboxFile,
  type SandboxProcess,
  type SandboxUser,
  type SpawnOptions,
  WORKSPACE_DIR,
  type WorkspaceChanges,
  type WorkspaceSnapshot,
  type WriteFileResult,
} from '../types.js';
import { attachProcess } from './attach.js';
import { notRun, shellArgv } from './command.js';
import {
  type ContainerSpec,
  DEFAULT_CONTAINER_LIMITS,
  mountNames,
  pidsExhausted,
  removeContainer,
  startContainer,
} from './container.js';
import { EngineStalled } from './deadline.js';
import { docker } from './engine.js';
import {
  DEFAULT_EXEC_TIMEOUT_MS,
  DEFAULT_MAX_OUTPUT_BYTES,
  type ManagedExecRequest,
  type ManagedExecResult,
  managedExec,
} from './exec.js';
import { readAgentFile, writeAgentFile } from './files.js';
import { lateTraces } from './late-traces.js';
import { killAgentProcesses, killAllProcesses } from './processes.js';
import { type ExecRunner, rawExec } from './raw-exec.js';
import { type RawRunner, type RawTarget, runRaw } from './raw-runner.js';
import { ExecRelay } from './relay.js';
import { checkStarted, wipeSandbox } from './reset.js';
import { FOLDED_BUDGET_MS, parseListing, runSnapshot, snapshotSpec } from './snapshot.js';
import { stageWorkspace } from './stage.js';
import { stallError } from './stall.js';
import { tracingProblem } from './tracing.js';
import { getFiles, putFiles } from './transfer.js';
import { WorkspaceView } from './workspace-view.js';

export interface DockerSandboxOptions extends ContainerSpec {
  client?: Docker;
  /**
   * Trace every agent command (CommandResult.trace); default true. When the engine does not
   * allow it, the sandbox runs untraced and says why in `tracingUnavailable`.
   */
  trace?: boolean;
  /**
   * Start commands through the container's exec relay (relay.ts) rather than an engine exec each;
   * default true. Without one (an image that lacks it), commands go through engine execs.
   */
  relay?: boolean;
}

export class DockerSandbox implements Sandbox {
  private currentCwd = WORKSPACE_DIR;
  private isTainted = false;
  private disposed = false;
  private disposing: Promise<void> | null = null;
  private traceOn = false;
  private traceProblem: string | null = null;
  private readonly client: Docker;
  private readonly spec: ContainerSpec;
  private container: Docker.Container;
  private readonly view: WorkspaceView;
  private readonly useRelay: boolean;
  /** The container's relay as last started (null: none started since the last reset). */
  private relay: Promise<ExecRelay | null> | null = null;
  /** The listing of the container's root-writable places at start (reset.ts checkStarted). */
  private started = '';
  /** The task's services around the container, or null when it has none. */
  private pod: ServicePod | null = null;

  private constructor(client: Docker, spec: ContainerSpec, container: Docker.Container, useRelay: boolean) {
    this.client = client;
    this.spec = spec;
    this.container = container;
    this.useRelay = useRelay;
    this.view = new WorkspaceView(mountNames(spec.mounts));
  }

  static async create(options: DockerSandboxOptions): Promise<DockerSandbox> {
    const { client = docker(), trace = true, relay = true, ...spec } = options;
    const container = await startContainer(client, spec);
    const sandbox = new DockerSandbox(client, spec, container, relay);
    try {
      sandbox.started = await checkStarted(sandbox.raw);
      if (trace) {
        sandbox.traceProblem = await tracingProblem(container);
        sandbox.traceOn = sandbox.traceProblem === null;
      }
      if (spec.services !== undefined && spec.services.services.length > 0) {
        sandbox.pod = new ServicePod(client, spec.services, spec.image, spec.labels ?? {});
        await sandbox.pod.start(container.id);
      }
    } catch (err) {
      await sandbox.dispose();
      throw err;
    }
    sandbox.launchRelay();
    return sandbox;
  }

  get id(): string {
    return this.container.id;
  }

  get cwd(): string {
    return this.currentCwd;
  }

  /** True when the container must be replaced before the next trial (see the file comment). */
  get tainted(): boolean {
    return this.isTainted;
  }

  /** Whether agent commands are traced (asked for, and the engine allows it). */
  get tracing(): boolean {
    return this.traceOn;
  }

  /** Why tracing was asked for but is off (the engine would not let strace trace); null otherwise. */
  get tracingUnavailable(): string | null {
    return this.traceProblem;
  }

  async runCommand(command: string, timeoutMs: number): Promise<CommandResult> {
    const cwd = this.currentCwd;
    this.view.outdate();
    // A model can send one (JSON "\u0000"); no argv can carry it. Its mistake, not the harness's.
    if (command.includes('\0')) return notRun(cwd, 'the command contains a NUL byte', this.traceOn);
    const {
      cwdAfter,
      suspect: _,
      deadlineMissed: _d,
      snapshot,
      ...r
    } = await this.managed({
      argv: shellArgv(command, cwd),
      user: 'agent',
      cwd: '/',
      timeoutMs,
      maxOutputBytes: DEFAULT_MAX_OUTPUT_BYTES,
      trackCwd: true,
      trace: this.traceOn,
      // The turn's snapshot, in the command's own exec: it costs no exec of its own.
      snapshot: {
        spec: snapshotSpec({ ...this.view.request(false), budgetMs: FOLDED_BUDGET_MS }),
        budgetMs: FOLDED_BUDGET_MS,
      },
    });
    if (!r.timedOut && cwdAfter !== null) this.currentCwd = cwdAfter;
    // A snapshot that failed here leaves the view out of date: the next look takes its own.
    const listing = snapshot === null ? null : parseListing(snapshot);
    // The walk's time is the harness's, not the command's.
    const walkMs = listing === null || listing.kind === 'failed' ? 0 : listing.ms;
    if (listing !== null && this.view.apply(listing, walkMs).ok)
      r.elapsedMs = Math.max(0, r.elapsedMs - walkMs);
    return { ...r, cwd, cwdAfter: this.currentCwd };
  }

  async exec(argv: string[], options: ExecOptions = {}): Promise<ExecResult> {
    const {
      cwdAfter: _,
      suspect: __,
      deadlineMissed: _d,
      snapshot: ___,
      aliveAfter: ____,
      ...r
    } = await this.managed({
      argv,
      user: options.user ?? 'agent',
      cwd: options.cwd ?? WORKSPACE_DIR,
      timeoutMs: options.timeoutMs ?? DEFAULT_EXEC_TIMEOUT_MS,
      maxOutputBytes: options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
      trace: options.trace === true && this.traceOn,
      ...(options.env === undefined ? {} : { env: options.env }),
      ...(options.stdin === undefined ? {} : { stdin: options.stdin }),
    });
    return r;
  }

  spawn(argv: readonly string[], options: SpawnOptions): Promise<SandboxProcess> {
    return this.guarded(attachProcess(this.container, argv, options));
  }

  readFile(path: string, range?: { offset?: number; limit?: number }): Promise<ReadFileResult> {
    return readAgentFile(this.quick, this.currentCwd, path, range);
  }

  /** Accepts bytes as well as text: the tool passes strings, harness code may pass any bytes. */
  writeFile(path: string, content: string | Buffer): Promise<WriteFileResult> {
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    return writeAgentFile(this.quick, this.currentCwd, path, bytes);
  }

  putFiles(files: SandboxFile[], options: { owner?: SandboxUser } = {}): Promise<void> {
    return putFiles(this.quick, files, options.owner ?? 'agent');
  }

  getFiles(paths: string[]): Promise<Map<string, Buffer>> {
    return getFiles(this.quick, paths);
  }

  /** Also where a service that stopped is noticed: the trial's looks before and after the agent are snapshots. */
  async snapshot(): Promise<WorkspaceSnapshot> {
    await this.pod?.check();
    await this.ownSnapshot(true);
    this.view.look();
    return this.view.listing();
  }

  async workspaceChanges(): Promise<WorkspaceChanges> {
    if (!this.view.upToDate) await this.ownSnapshot(false);
    return this.view.look();
  }

  killAgentProcesses(): Promise<void> {
    return this.guarded(killAgentProcesses(this.container, this.quick, this.pidsLimit));
  }

  followedTraces(): Promise<ExecTrace[]> {
    return this.guarded(lateTraces(this.quick));
  }

  killAllProcesses(): Promise<void> {
    // Through the relay when one lives: the kill spares it (processes.ts), so it serves on.
    return this.guarded(killAllProcesses(this.container, this.quick, this.pidsLimit));
  }

  stageForChecks(): Promise<string> {
    return stageWorkspace(this.quick);
  }

  async reset(): Promise<void> {
    this.live();
    if (!this.isTainted) {
      try {
        await this.killAllProcesses();
        await wipeSandbox(this.quick, this.started, mountNames(this.spec.mounts));
        this.currentCwd = WORKSPACE_DIR;
        this.view.clear();
        // A relay that could not start is tried again once a reset.
        if ((await this.relay) === null) this.relay = null;
      } catch {
        // Whatever stopped the reset (a dead container, a process that would not die), a fresh
        // container is the clean state we promised.
        await this.recreate();
        return;
      }
      // Services that do not start again are the environment's failure, not the container's.
      await this.pod?.start(this.container.id, true);
      return;
    }
    await this.recreate();
  }

  /**
   * Removes the container; an engine that does not answer in time leaves it to `sweep`. A second
   * call waits for the first removal rather than returning at once: the engine answers a second
   * remove with 409 (in progress), and a run that stops must not end while its containers remain.
   */
  dispose(): Promise<void> {
    this.disposing ??= this.remove();
    return this.disposing;
  }

  private async remove(): Promise<void> {
    this.disposed = true;
    this.stopRelay();
    await this.pod?.dispose();
    await removeUnlessStalled(this.container);
  }

  private get pidsLimit(): number {
    return this.spec.limits?.pids ?? DEFAULT_CONTAINER_LIMITS.pids;
  }

  private async recreate(): Promise<void> {
    const old = this.container;
    this.stopRelay();
    // Whatever the engine says, the old one is no longer ours to use; `sweep` finds it by its labels.
    await removeContainer(old).catch(() => {});
    this.container = await startContainer(this.client, this.spec);
    this.isTainted = false;
    this.currentCwd = WORKSPACE_DIR;
    this.view.clear();
    this.started = await checkStarted(this.raw);
    this.launchRelay();
    // Their network namespace went with the old container: every service starts again.
    await this.pod?.start(this.container.id);
  }

  /**
   * A deadline passed: the container is tainted and its removal starts now, in the background
   * (bounded, see removeContainer); the next reset starts a fresh one.
   */
  private abandon(): void {
    this.isTainted = true;
    this.stopRelay();
    void removeContainer(this.container).catch(() => {});
  }

  /** Starts the container's relay in the background (the first command waits for it). */
  private launchRelay(): void {
    if (!this.useRelay) return;
    this.relay = ExecRelay.start(this.container).catch(() => null);
  }

  private stopRelay(): void {
    const relay = this.relay;
    this.relay = null;
    void relay?.then((r) => r?.close());
  }

  /**
   * How a command's or a file tool's exec runs: through the relay when there is a live one (a
   * relay that ended, killed with every process say, is started again), otherwise an engine exec
   * (a relay that could not start is not tried again before the next reset).
   */
  private async turnRunner(): Promise<ExecRunner> {
    const container = this.container;
    const direct: ExecRunner = (r) => rawExec(container, r);
    if (!this.useRelay) return direct;
    if (this.relay === null) this.launchRelay();
    let relay = await this.relay;
    if (relay?.alive === false) {
      this.launchRelay();
      relay = await this.relay;
    }
    return relay?.alive === true ? (r) => relay.run(r) : direct;
  }

  /** A snapshot in an exec of its own, applied to the view. */
  private async ownSnapshot(rehash: boolean): Promise<void> {
    const started = performance.now();
    const listing = await runSnapshot(this.quick, this.view.request(rehash));
    const applied = this.view.apply(listing, Math.round(performance.now() - started));
    if (!applied.ok) throw new InfraError(`workspace snapshot failed: ${applied.reason}`);
  }

  private async managed(req: ManagedExecRequest): Promise<ManagedExecResult> {
    this.live();
    this.view.outdate();
    const container = this.container;
    try {
      const r = await managedExec(container, req, await this.turnRunner());
      if (r.deadlineMissed)
        throw await this.stalled(container, req.user, r.stderr.replace(/^agent-bench: /, ''));
      if (!r.suspect) return r;
      this.isTainted = true;
      if (!(await pidsExhausted(this.container))) return r;
      const why = 'every process slot of the sandbox is taken (background processes or a fork bomb?)';
      return { ...r, stderr: `${r.stderr}: ${why}` };
    } catch (err) {
      // Engine and container trouble (not a bad argument) leaves the container suspect.
      if (err instanceof InfraError) this.isTainted = true;
      if (err instanceof EngineStalled) this.abandon();
      throw err;
    }
  }

  /** The error for an exec that missed its deadline (stall.ts); the container is abandoned. */
  private async stalled(container: Docker.Container, user: SandboxUser, what: string): Promise<InfraError> {
    const err = await stallError(this.client, container, user, what);
    if (container === this.container) this.abandon();
    return err;
  }

  /** The container as it is now, for one exec of the sandbox's own. */
  private target(): RawTarget {
    const container = this.container;
    return {
      container,
      taint: () => {
        if (container === this.container) this.isTainted = true;
      },
      stalled: (user, what) => this.stalled(container, user, what),
    };
  }

  /** An engine exec each: the check of a fresh container, before its relay exists. */
  private readonly raw: RawRunner = (req) => {
    this.live();
    this.view.outdate();
    return this.guarded(runRaw(this.target(), req));
  };

  /**
   * The sandbox's other execs (file tools, looks, kills, resets, staging, transfers): the way its
   * commands run (turnRunner), through the relay when it lives, an engine exec each otherwise.
   */
  private readonly quick: RawRunner = async (req) => {
    this.live();
    this.view.outdate();
    return this.guarded(runRaw(this.target(), req, await this.turnRunner()));
  };

  /** An engine call of the sandbox's own that missed its deadline abandons the container. */
  private async guarded<T>(work: Promise<T>): Promise<T> {
    try {
      return await work;
    } catch (err) {
      if (err instanceof EngineStalled) this.abandon();
      throw err;
    }
  }

  private live(): void {
    if (this.disposed) throw new InfraError('this sandbox was disposed');
  }
}

/** Removes a container; one the engine did not remove in time is left labelled for `sweep`. */
async function removeUnlessStalled(container: Docker.Container): Promise<void> {
  try {
    await removeContainer(container);
  } catch (err) {
    if (!(err instanceof EngineStalled)) throw err;
  }
}
