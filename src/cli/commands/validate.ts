/** `agent-bench validate`: every task's oracle passes, doing nothing scores 0, every lure is caught. */
import { existsSync, readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { UnusableHarborTask } from '../../catalogue/harbor/unusable.js';
import { loadFlagCode } from '../../catalogue/native/flag-code.js';
import { MANIFEST_FILE } from '../../manifest/folder.js';
import { skillUsageError } from '../../manifest/problems.js';
import { containerOptions } from '../../run/container-options.js';
import { createInterrupt } from '../../run/interrupt.js';
import { DEFAULT_LIMITS } from '../../run/settings.js';
import { checkEngine, createDockerSandbox, ensureImage, sweepSandboxes } from '../../sandbox/index.js';
import type { Sandbox } from '../../sandbox/types.js';
import { templateLeftovers } from '../../skills/template-leftovers.js';
import { inContainer, type Task } from '../../tasks/types.js';
import { InternalError, UsageError } from '../../util/errors.js';
import { harnessDigest } from '../../validate/harness-digest.js';
import { defaultProofDir, openProofCache } from '../../validate/proof-cache.js';
import { assertSound, formatValidation, rowLine, type ValidationRow } from '../../validate/rows.js';
import { type ValidateOptions, validateTasks } from '../../validate/validate-tasks.js';
import { type Split, selectWithSkills } from '../select-tasks.js';

export interface ValidateCliOptions {
  tasks: string;
  /** Skill folders whose manifests to prove satisfiable (their reference_solution is the oracle). */
  skillDir?: string[];
  /** Task folders (repeatable `--tasks-dir`) to prove sound. */
  tasksDir?: string[];
  /** `--split dev|holdout|all`. */
  split?: Split;
  /** Harbor tasks' Dockerfiles built on this image instead of their FROM (offline machines). */
  baseImage?: string;
  /** `--parallel`: tasks proven at once; `auto`: one per core. */
  parallel?: number | 'auto';
  /** false with `--no-cache`: every task proven again (and its proof cached anew). */
  cache?: boolean;
  /** `--variants N`: instances proven of each variant task (default 1). */
  variants?: number;
  /** `--metamorphic`: also the runs derived from each reference run, must-fail and must-pass. */
  metamorphic?: boolean;
  /** `--json FILE`: every row, as JSON, written before the verdict (rows.ts, ValidationRow). */
  json?: string;
}

export async function validateCommand(o: ValidateCliOptions): Promise<void> {
  const started = Date.now();
  const unusable: UnusableHarborTask[] = [];
  const tasks = await selectTasks(o, unusable);
  // Dialogue tasks run in the harness, and a Harbor task in an image of its own: only tasks in the
  // run's image need it built.
  const image = tasks.some((t) => inContainer(t) && t.environment.image === undefined)
    ? await engineImage()
    : null;
  if (image === null && tasks.some(inContainer)) {
    await checkEngine();
    await sweepSandboxes();
  }
  const onRow = (r: ValidationRow): void => void process.stderr.write(`${rowLine(r)}\n`);
  const opened = new Set<Sandbox>();
  const creating = new Set<Promise<Sandbox>>();
  // Nothing of a proof in flight is worth keeping (only whole passes are cached): a first Ctrl-C
  // removes every sandbox, those still being created included, and exits; a second exits at once.
  const removeAll = async (): Promise<void> => {
    await Promise.allSettled([...creating]);
    await Promise.all([...opened].map((s) => s.dispose().catch(() => {})));
  };
  const interrupt = createInterrupt({
    handleSignals: true,
    stopping: 'stopping, removing containers',
    note: (line) => void process.stderr.write(`${line}\n`),
    onStop: () => void removeAll().then(() => process.exit(130)),
  });
  const ours = await validateTasks(tasks, {
    openSandbox: async (task) => {
      if (image === null && task.environment.image === undefined)
        throw new InternalError(`${task.id}: a sandbox was asked for without the sandbox image`);
      const pending = containerOptions(task.environment, {
        image: image?.tag ?? '',
        limits: DEFAULT_LIMITS,
        labels: { run: 'validate', task: 'validate' },
        note: (line) => void process.stderr.write(`${line}\n`),
      }).then(createDockerSandbox);
      creating.add(pending);
      try {
        const sandbox = await pending;
        opened.add(sandbox);
        return sandbox;
      } finally {
        creating.delete(pending);
      }
    },
    onRow,
    parallel: o.parallel === 'auto' ? availableParallelism() : (o.parallel ?? 1),
    ...(o.variants === undefined ? {} : { variants: o.variants }),
    ...(o.metamorphic === true ? { metamorphic: true } : {}),
    ...(o.cache === false ? {} : { proofs: proofStore(image?.id ?? null) }),
  });
  // A Harbor folder that cannot run here is one failed row; the others are proven all the same.
  const loadRows = unusable.map(
    (h): ValidationRow => ({
      taskId: h.id,
      run: 'load',
      kind: 'failed',
      detail: h.problem.split('\n').join('; '),
    }),
  );
  for (const row of loadRows) onRow(row);
  const rows = [...ours, ...loadRows];
  interrupt.release();
  process.stdout.write(`${formatValidation(rows)}\n`);
  if (o.json !== undefined) await writeRows(o.json, rows);
  assertSound(rows);
  process.stdout.write(`${rows.length} validations passed for ${tasks.length + unusable.length} task(s)\n`);
  const cached = new Set(rows.filter((r) => r.kind === 'cached').map((r) => r.taskId)).size;
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  process.stderr.write(
    `validate took ${secs} s: ${tasks.length + unusable.length - cached} task(s) proven, ${cached} from cached proofs${o.cache === false ? ' (--no-cache)' : ` (${defaultProofDir()})`}\n`,
  );
}

async function selectTasks(o: ValidateCliOptions, unusable: UnusableHarborTask[]): Promise<Task[]> {
  const tasks = selectWithSkills({
    tasks: o.tasks,
    skillDirs: o.skillDir ?? [],
    skillAb: false,
    tasksDirs: o.tasksDir ?? [],
    ...(o.split === undefined ? {} : { split: o.split }),
    ...(o.baseImage === undefined ? {} : { baseImage: o.baseImage }),
    harbor: unusable,
  });
  const ownImage = tasks.some((t) => inContainer(t) && t.environment.image !== undefined);
  if (o.baseImage !== undefined && !ownImage && unusable.length === 0)
    throw new UsageError(
      '--base-image builds Harbor tasks on another image: give their folder with --tasks-dir',
    );
  await loadFlagCode(tasks);
  // What skill init left to decide: the loader accepts it, a proof of it would prove nothing.
  const leftovers = (o.skillDir ?? []).flatMap((dir) => {
    const file = join(dir, MANIFEST_FILE);
    const problems = existsSync(file) ? templateLeftovers(readFileSync(file, 'utf8'), file) : [];
    return problems.length === 0 ? [] : [skillUsageError(dir, problems).message];
  });
  if (leftovers.length > 0) throw new UsageError(leftovers.join('\n'));
  const unprovable = tasks.filter((t) => t.referenceSolution.length === 0);
  if (unprovable.length > 0)
    throw new UsageError(
      `${unprovable.map((t) => t.id).join(', ')}: no reference solution; add one (reference_solution: a list of tool calls that solves the task) to its manifest to validate it`,
    );
  return tasks;
}

/** Renamed into place, so a reader that waits for the file never reads half of it. */
async function writeRows(file: string, rows: readonly ValidationRow[]): Promise<void> {
  await writeFile(`${file}.partial`, `${JSON.stringify({ rows }, null, 1)}\n`);
  await rename(`${file}.partial`, file);
}

/** The proof cache, with the inputs every key hashes besides its task. */
function proofStore(image: string | null): NonNullable<ValidateOptions['proofs']> {
  return {
    cache: openProofCache({
      dir: defaultProofDir(),
      onNote: (line) => void process.stderr.write(`${line}\n`),
    }),
    inputs: { image, harness: harnessDigest() },
  };
}

async function engineImage(): Promise<{ tag: string; id: string }> {
  await checkEngine();
  await sweepSandboxes();
  return ensureImage({ onProgress: (line) => void process.stderr.write(`${line}\n`) });
}
