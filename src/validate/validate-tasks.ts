/**
 * Proves tasks sound (prove-task.ts), several at once when asked, each in its own sandbox. A task
 * whose proof is cached under the key of its current inputs is not proven again: its rows come back
 * as cached passes. The rows returned are in the tasks' order whatever order the proofs finish in;
 * with several at once, the tasks with most runs start first, so no long proof is left alone at the
 * end, and each task's rows are reported (onRow) as soon as it is proven.
 */
import { runPool } from '../run/pool.js';
import type { Task } from '../tasks/types.js';
import type { ProofCache } from './proof-cache.js';
import { cacheable, type ProofInputs, proofKey, taskFilesDigest } from './proof-key.js';
import { type OpenSandbox, proveTask } from './prove-task.js';
import type { ValidationRow } from './rows.js';
import { type ProofUnit, proofUnits } from './variant-instances.js';

export interface ValidateOptions {
  openSandbox: OpenSandbox;
  /** Called per row as each task's proof ends (a task's rows together, in their order). */
  onRow?: (row: ValidationRow) => void;
  /** Tasks proven at once (default 1). */
  parallel?: number;
  /** Where passing proofs are kept, and the inputs their keys hash besides the task. */
  proofs?: { cache: ProofCache; inputs: Omit<ProofInputs, 'files'> };
  /** `--metamorphic`: also the runs derived from each reference run (src/validate/metamorphic/). */
  metamorphic?: boolean;
  /** Instances proven of each variant task (`--variants`, default 1); tasks without variants are proven as they are. */
  variants?: number;
}

export async function validateTasks(given: readonly Task[], o: ValidateOptions): Promise<ValidationRow[]> {
  const parallel = o.parallel ?? 1;
  const { units, rows: generatorRows } = await proofUnits(given, {
    n: o.variants ?? 1,
    parallel,
    openSandbox: o.openSandbox,
    proven: async (task) => (await cachedProof(task, o)) !== null,
  });
  for (const row of generatorRows) o.onRow?.(row);
  const done: (ValidationRow[] | undefined)[] = units.map(() => undefined);
  const order = [...units.keys()];
  const taskOf = (i: number): Task => (units[i] as ProofUnit).task;
  if (parallel > 1) order.sort((a, b) => runsOf(taskOf(b)) - runsOf(taskOf(a)));
  await runPool(parallel, order, async (i) => {
    const unit = units[i] as ProofUnit;
    const rows = (await validateTask(unit.task, o)).map((r) =>
      unit.instance === undefined ? r : { ...r, run: `instance ${unit.instance}: ${r.run}` },
    );
    done[i] = rows;
    for (const row of rows) o.onRow?.(row);
  });
  return [...generatorRows, ...done.flatMap((rows) => rows ?? [])];
}

/** What a task's proof runs: oracle, do-nothing, lures, alternates and cheats (a proxy for its time). */
function runsOf(task: Task): number {
  return 2 + (task.lures?.length ?? 0) + (task.alternates?.length ?? 0) + (task.cheats?.length ?? 0);
}

async function validateTask(task: Task, o: ValidateOptions): Promise<ValidationRow[]> {
  const prove = () => proveTask(task, o.openSandbox, o.metamorphic === true ? { metamorphic: true } : {});
  if (o.proofs === undefined || !cacheable(task)) return prove();
  const cached = await cachedProof(task, o);
  if (cached !== null) return cached;
  const rows = await prove();
  await o.proofs.cache.save(task, proofKeyOf(task, { ...o, proofs: o.proofs }), rows);
  return rows;
}

/** The task's cached rows under the key of its inputs as they are now; null when none (or no cache). */
function cachedProof(task: Task, o: ValidateOptions): Promise<ValidationRow[] | null> {
  if (o.proofs === undefined || !cacheable(task)) return Promise.resolve(null);
  return o.proofs.cache.load(task, proofKeyOf(task, { ...o, proofs: o.proofs }));
}

function proofKeyOf(
  task: Task,
  o: ValidateOptions & { proofs: NonNullable<ValidateOptions['proofs']> },
): string {
  return proofKey(task, {
    ...o.proofs.inputs,
    files: taskFilesDigest(task),
    ...(o.metamorphic === true ? { metamorphic: true as const } : {}),
  });
}
