/**
 * A task is data plus small check functions. Adding a task never touches the loop, the sandbox
 * or the scoring core.
 */
import type { ScriptedTurn } from '../models/scripted.js';
import type { ChatModel } from '../models/types.js';
import type { RunCondition, TaskSlot } from '../results/condition.js';
import type { EventSink } from '../results/events.js';
import type {
  AgentFault,
  FlagResult,
  HarborVerifierRecord,
  SimulatedUserRecord,
  ToolCallLog,
  TrialRecord,
  TurnLog,
} from '../results/trial.js';
import {
  CHECKS_DIR,
  type ExecResult,
  type HarborSandboxImage,
  type PodSpec,
  type ReadOnlyMount,
  type Sandbox,
  type WorkspaceSnapshot,
} from '../sandbox/types.js';
import type { McpServerSpec, ToolChoice } from './mcp-servers.js';
import type { MetamorphicSkips } from './metamorphic.js';
import type { InstanceTree } from './variants/instance-tree.js';

/**
 * Where a task's hidden files are placed for its checks (tests the agent never saw): next to the
 * staged copy of the workspace, readable by the checker, never by the agent.
 */
export const HIDDEN_DIR = `${CHECKS_DIR}/hidden`;

export interface TaskFile {
  /** Relative to /workspace (setup files), or absolute (hidden files). */
  path: string;
  content: string;
  /** Defaults to 0o644. */
  mode?: number;
}

/** Process flags say how the work was done; outcome flags say whether the result is right. */
type FlagKind = 'process' | 'outcome';

export type FlagOutcome =
  /**
   * reached on `turn`, or reached with no observable turn (turn null: ground truth after the run);
   * `detail` says by how much where a check measures something (a mutation score).
   */
  { reached: true; turn: number | null; detail?: string } | { reached: false; detail?: string };

export interface Flag {
  id: string;
  description: string;
  kind: FlagKind;
  /** Relative weight in the score; defaults to 1. */
  weight?: number;
  /**
   * The flag states an absence ("the agent did not do X"): credited only in a trial that reached an
   * outcome flag that is not itself an absence, since doing nothing does no harm either. Mark flags
   * with `absence()` (src/scoring/score.ts), which also says so in the description.
   */
  absence?: true;
  check(ctx: CheckContext): FlagOutcome | Promise<FlagOutcome>;
}

/** Everything a check may look at. Ground truth comes only from `groundTruth`, never from the model's logs. */
export interface CheckContext {
  turns: readonly TurnLog[];
  /** All tool calls in order, each with the turn it was made on. */
  calls: readonly (ToolCallLog & { turn: number })[];
  setupSnapshot: WorkspaceSnapshot;
  finalSnapshot: WorkspaceSnapshot;
  /** Workspace-relative path -> content, for the task's own files as it placed them (what reads are matched against). */
  setupFiles: ReadonlyMap<string, string>;
  /** Workspace-relative path -> first turn whose snapshot showed it created or changed. */
  firstChangeTurn: ReadonlyMap<string, number>;
  /** Workspace-relative path -> every turn whose snapshot changed it vs the snapshot before (ascending). */
  changeTurns: ReadonlyMap<string, readonly number[]>;
  finalAnswer: string | null;
  /**
   * What the task lets the agent write (its allowed_writes) and the paths it leaves alone (tool
   * caches, its ignored globs), relative to /workspace: a run that executed a file the agent wrote
   * outside them ran a stand-in (src/scoring/stand-ins.ts).
   */
  declaredWrites: DeclaredWrites;
  groundTruth: GroundTruth;
  /**
   * A variant task's instance values (its instance.json, as `{{instance.*}}` reads them), for flag
   * code whose check follows the instance (the function at fault, the row to find); {} for others.
   */
  instance: Readonly<Record<string, unknown>>;
}

export interface DeclaredWrites {
  allowed: readonly string[];
  ignored: readonly string[];
}

/**
 * Commands the harness itself runs after the agent's last turn, with every other process killed: as
 * the checker user (neither root nor the agent), on a staged copy of the workspace it cannot change.
 */
export interface GroundTruth {
  /** Runs a shell command in the staged workspace as the checker. Results are cached per command string. */
  run(command: string): Promise<ExecResult>;
  /** Reads a workspace file's bytes as they are now (null when missing). */
  readFile(path: string): Promise<string | null>;
}

export interface TaskMeta {
  domain: string;
  difficulty: 'easy' | 'medium' | 'hard';
  description: string;
  /** Fewest turns a careful agent needs. */
  optimalSteps: number;
  /** Heavy artifact tasks run last in `--tasks all`. */
  heavy?: boolean;
  /** `holdout`: kept out of a team's tuning, selected by `--split holdout|all` only (absent: dev). */
  split?: 'holdout';
}

/**
 * A task, by kind: what every kind shares is a prompt, flags and scripted runs; how a trial of it
 * runs is the task's own strategies: its `environment` (a container of its own, or the harness) and,
 * in a container, its `judge` (the flags' checks, or its verifier). One loader per format makes them
 * (src/catalogue/): a task folder (`sandbox`), a skill folder (`skill`), a Harbor task folder
 * (`harbor`), the helpdesk pack (`dialogue`). Only the loaders and the exporter ask for `kind`;
 * everything else calls the strategies (src/trial/kernel.ts runs every trial the one way).
 */
export type Task = SandboxTask | SkillTask | HarborTask | DialogueTask;

/** The kinds whose trials run in a sandbox container with a workspace. */
export type WorkspaceTask = SandboxTask | SkillTask | HarborTask;

interface TaskCommon {
  id: string;
  meta: TaskMeta;
  /** Where its trials run: a container of its own, or the harness. */
  environment: TaskEnvironment;
  /**
   * Its seeded instances, when it has them: every trial draws one by id (src/tasks/variants/). A
   * task folder's and a skill folder's `variants` are drawn by their generator, a dialogue
   * scenario's from its pools.
   */
  variants?: TaskVariants;
  /**
   * What else decides its verdicts besides the fields here, as digests (its version and proof key
   * hash them); the host folders it is read from or mounts. Absent: nothing else (a task built in code).
   */
  source?: TaskSource;
  prompt: string;
  maxTurns: number;
  flags: Flag[];
  /** The oracle: a scripted run that must pass. */
  referenceSolution: ScriptedTurn[];
  /** Scripted runs reproducing the failures this task is built to catch (`agent-bench validate`). */
  lures?: Lure[];
  /**
   * `validate --metamorphic` operators (or single derived runs, by id) that do not apply to the task,
   * each with the author's reason (a task whose reference must run its tests in one command cannot
   * split them, say).
   */
  metamorphicSkips?: MetamorphicSkips;
  /**
   * A conversation's sentences `validate --metamorphic` adds to the reference's last message to the
   * user (src/validate/metamorphic/spoken.ts): a leak, a forbidden ask and a false claim must each be
   * caught, the truth in other words must still pass. Absent: a task that talks to no one.
   */
  spokenProbes?: SpokenProbes;
  /**
   * Legitimate solutions in other styles than the reference (piped or chained test runs, other
   * editors, other runner invocations, cd into folders): `validate` requires each to pass, so a
   * task never fails a correct solution for its shell style.
   */
  alternates?: Alternate[];
  /**
   * Runs that game a flag without doing its work (a read piped into wc, a test run of something
   * else, a faked ground truth): `validate` requires each to miss the flags it names, like a lure.
   */
  cheats?: Lure[];
}

/** Sentences said to the user, each standing for a family of what the words checks judge. */
export interface SpokenProbes {
  /** Another employee's directory datum. */
  leak: string;
  /** A request for what the policy never asks. */
  forbiddenAsk: string;
  /** Something said done that the reference's end state shows not done; null when none is known. */
  falseClaim: string | null;
  /** What the reference's end state shows done, in other words (another language); null when nothing is. */
  trueClaim: string | null;
  /** The requester's employee id, and another employee's (null when the directory has no other). */
  requester: string;
  otherEmployee: string | null;
}

/** What a trial in a sandbox starts from and may change. */
export interface WorkspaceParts {
  /** Globs (relative to /workspace) the agent may create, modify or delete. */
  allowedWrites: string[];
  /** Globs never counted as tamper nor as changes (caches); tool caches are added (ignored.ts). */
  ignored: string[];
  /** Changes under tool caches (.pytest_cache, __pycache__, node_modules/.cache) count like any other. */
  watchToolCaches?: boolean;
  /** Files placed in /workspace before each trial, owned by the agent user. */
  files: TaskFile[];
  /** Shell commands run as the agent user in /workspace after the files are placed. */
  setupCommands?: string[];
  /**
   * Files placed only for the checks, after the agent's last turn and after every other process is
   * killed: in HIDDEN_DIR, next to the staged copy of the workspace (paths relative to HIDDEN_DIR),
   * e.g. hidden tests. The agent never sees or edits them.
   */
  hiddenFiles?: TaskFile[];
  /** MCP servers whose tools the model is offered (src/tasks/mcp-servers.ts); none when absent. */
  mcpServers?: readonly McpServerSpec[];
  /** `mcp_only`: the MCP servers' tools alone, without the built-in three (default all). */
  tools?: ToolChoice;
  /** What decides a trial once the turns are over: the flags' checks, or the task's own verifier. */
  judge: TaskJudge;
  /**
   * The text files the agent finds mounted beside its workspace (a skill's, paths relative to
   * /workspace, e.g. skill/SKILL.md): what reads of them are matched against. None for most tasks.
   */
  mountedFiles: readonly TaskFile[];
  /**
   * The task's own agent for its reference solution (Harbor's oracle: solve.sh as root), which a
   * model replaying the reference (`--model oracle`, validate's oracle row) runs as instead of the
   * sandbox's tools; absent: the reference runs through the tools like any model's calls.
   */
  referenceAgent?: ReferenceAgent;
  /**
   * How long one of the checks' own runs after the last turn (a harness test run, a harness
   * command) may take before it is stopped and its flag missed; default CHECK_TIMEOUT_SEC.
   */
  checkTimeoutSec?: number;
}

/** The bound on a check's own run when the task names none: generous, for slow machines. */
export const CHECK_TIMEOUT_SEC = 120;

/**
 * Where a task's trials run, as the runner opens it (the task's strategy; no runner asks its kind):
 * a container of its own, reset between trials and disposed after the last, or the harness.
 */
type TaskEnvironment = ContainerEnvironment | HarnessEnvironment;

/** Its trials run in a sandbox container with a workspace. */
export interface ContainerEnvironment {
  place: 'container';
  /** The task's own image (a Harbor task's, built on first use); absent: the run's sandbox image. */
  image?: (onProgress: (line: string) => void) => Promise<HarborSandboxImage>;
  /** Resources over the run's defaults (a Harbor task.toml's). */
  limits?: { cpus: number; memory_mb: number };
  /**
   * Host folders mounted read-only (a skill's at /workspace/skill). Not part of the snapshots, so
   * never tamper nor changes; their content is pinned by the task's source digest instead.
   */
  readonly mounts: readonly ReadOnlyMount[];
  /** Services the agent reaches by name, run as a pod around its sandbox (docs/services.md). */
  services?: PodSpec;
  /** Agent time after which no new turn starts (a Harbor task's agent timeout). */
  agentTimeoutSec?: number;
}

/** Its trials run in the harness, which answers the model itself (a dialogue's desk and its user). */
interface HarnessEnvironment {
  place: 'harness';
  runTrial(o: HarnessTrialRequest): Promise<TrialRecord>;
}

/** A container task's judge: its flags' checks, or its own verifier (Harbor's tests/test.sh). */
export type TaskJudge =
  | { by: 'flags' }
  | { by: 'verifier'; verify(sandbox: Sandbox): Promise<VerifierVerdict> };

/** A task's flags decide its trials. */
export const FLAG_JUDGE: TaskJudge = { by: 'flags' };

/** What a verifier decides: the trial's flags, score and pass, and the agent's fault when it gave no trustworthy reward. */
interface VerifierVerdict {
  flags: Record<string, FlagResult>;
  score: number;
  passed: boolean;
  fault?: AgentFault;
  /** reward.json's named metrics, when it wrote them. */
  rewards?: Record<string, number>;
  verifier?: HarborVerifierRecord;
}

/** A task's own agent for its reference: the one command it is called with, and how that runs. */
export interface ReferenceAgent {
  command: string;
  run(sandbox: Sandbox): Promise<ExecResult>;
}

/** The environment of a task that runs in the run's sandbox image with nothing mounted. */
export const SANDBOX_ENVIRONMENT: ContainerEnvironment = { place: 'container', mounts: [] };

/** Whether the task's trials run in a container with a workspace (its environment says so). */
export function inContainer(task: Task): task is WorkspaceTask {
  return task.environment.place === 'container';
}

/** What decides a task's verdicts besides its fields, and the folders it comes from. */
interface TaskSource {
  /** Host folders it is read from or mounts (hashed as content into its proof key). */
  readonly folders: readonly string[];
  /** Where it comes from, as `list` says it: what the folder is (none for a task folder) and where. */
  from?: { noun: string; dir: string };
  /**
   * sha256 of a task folder's checks as the manifest states them and of its flag code's source:
   * what decides its verdicts and has no field of its own (then flag descriptions are not hashed).
   */
  checks?: string;
  /** A mounted skill folder's content digest: recorded in results (skill_digest) too. */
  skill?: string;
  /** A variant task folder's generator and what it reads. */
  variants?: string;
  /** A dialogue scenario, the pack's base data and its policy. */
  dialogue?: string;
}

/** A native task: files, flags and scripted runs, from a task folder (or built in code by a test). */
export interface SandboxTask extends TaskCommon, WorkspaceParts {
  kind: 'sandbox';
  environment: ContainerEnvironment;
  /** Where its folder is, and its flag code (absent only for tasks built in code by tests). */
  folder?: TaskFolderRef;
}

/** A user's (or a bundled) skill folder, mounted read-only at /workspace/skill. */
export interface SkillTask extends TaskCommon, WorkspaceParts {
  kind: 'skill';
  environment: ContainerEnvironment;
}

/**
 * A Harbor task: its trials run in its own image (its environment), its verifier, not flag checks,
 * decides them (its judge), and its reference is Harbor's oracle (its reference agent).
 */
export interface HarborTask extends TaskCommon, WorkspaceParts {
  kind: 'harbor';
  environment: ContainerEnvironment;
}

/**
 * A dialogue task (src/dialogue/): its trials talk to a simulated user through the task's own tools
 * against a mock environment in the harness, with no sandbox and no workspace.
 */
export interface DialogueTask extends TaskCommon {
  kind: 'dialogue';
  environment: HarnessEnvironment;
  dialogue: DialogueTaskRef;
}

/** What the runner needs of a dialogue task; the conversation itself is src/dialogue/'s. */
export interface DialogueTaskRef {
  /** The pack's folder (where the task comes from). */
  pack: string;
  /** The policy dimension it measures (reports give pass rates per dimension). */
  dimension: string;
}

interface HarnessTrialRequest {
  index: number;
  model: ChatModel;
  /** Faults or injection payloads at the domain tools (default clean). */
  condition?: RunCondition;
  /** The task's place in the run: which injection class the trial is dealt. */
  slot?: TaskSlot;
  maxTurns: number;
  /** Who plays the user (default: the scenario's scripted user). */
  user?: DialogueUserChoice;
  onEvent?: EventSink;
  signal?: AbortSignal;
}

/** The scenario's scripted user, or a model playing it (`--user-model`), recorded with its settings. */
export type DialogueUserChoice =
  | { kind: 'scripted' }
  | {
      kind: 'llm';
      /** A fresh client per trial, like the agent's. */
      makeModel: () => ChatModel;
      record: Extract<SimulatedUserRecord, { kind: 'llm' }>;
    };

/** Where a folder task came from, and what its version hashes besides the Task's own fields. */
interface TaskFolderRef {
  /** Absolute path of the folder (under tasks/, or a --tasks-dir). */
  dir: string;
  /** flags.ts, when some check needs code. */
  flagCode: FlagCodeRef | null;
}

/**
 * How a task's instances are drawn (its strategy; no runner asks its kind): by a generator it ships,
 * run in a sandbox of its image and cached by what it reads, or in the harness from the id alone.
 */
type TaskVariants = GeneratedVariants<Task> | SeededVariants<Task>;

interface VariantsCommon {
  countHint?: number;
  /** The drawn instance this task is (its id, the SEED); absent: the folder's own (`--variant folder`). */
  instance?: string;
  /** This instance's values (instance.json, a scenario's placeholders): what flag code reads as `ctx.instance`. */
  values: Readonly<Record<string, unknown>>;
}

/** Instances a generator writes (`generate SEED OUTDIR`), as files laid over the folder's own. */
export interface GeneratedVariants<T> extends VariantsCommon {
  drawn: 'generator';
  /** The generator, relative to the folder. */
  generator: string;
  /** What the generator can read, as content: in the task's version, and the instance cache's key. */
  digest: string;
  /** The folder's files, as the generator gets them (a read-only copy it runs in). */
  folderFiles(): { path: string; content: Buffer; mode: number }[];
  /** Why what the generator wrote is no instance of this folder (null: it is one). */
  treeProblem(tree: InstanceTree): string | null;
  /** A generated instance as a task: the folder with the generator's files in place of its own. */
  instanceOf(tree: InstanceTree, id: string): T;
}

/** Instances drawn in the harness from the id alone (a dialogue scenario's pools): no generator, no cache. */
export interface SeededVariants<T> extends VariantsCommon {
  drawn: 'harness';
  /** Instance `id` as a task (one that cannot be is a UsageError naming the task and the instance). */
  instanceOf(id: string): T;
}

export interface FlagCodeRef {
  /** flags.ts, as its author wrote it. */
  source: string;
  /** The file imported: flags.ts, or the flags.js compiled from it. */
  module: string;
  /** The exports the manifest names as checks. */
  exports: readonly string[];
}

/** A legitimate solution in another style; it must pass. */
export interface Alternate {
  id: string;
  description: string;
  script: ScriptedTurn[];
}

/**
 * A scripted run that reproduces one failure mode, and how the task must catch it: the listed flags
 * stay unreached (and tamper is detected, when `tamper` is true), and those in `reached` are still
 * reached, so it is caught for what it names and not for a slip elsewhere. A lure that passes is a
 * lenient task.
 */
export interface Lure {
  id: string;
  description: string;
  script: ScriptedTurn[];
  expect: { unreached: string[]; reached?: string[]; tamper?: boolean };
}
