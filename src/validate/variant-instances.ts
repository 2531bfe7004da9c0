/**
 * `validate --variants N`: a variant task is proven on N of its instances, the first N a run with
 * the default seed draws (so the instances proven are those trials run), each drawn twice to show
 * the generator deterministic — but for an instance whose proof is cached: its key holds the
 * instance's content, which was drawn twice when it was proven (a seeded dialogue scenario's are
 * drawn in the harness, no sandbox). Tasks are drawn `parallel` at once, each generator in a sandbox
 * of its own. A task without variants is proven as it is, at no extra cost.
 */
import { runPool } from '../run/pool.js';
import type { Sandbox } from '../sandbox/types.js';
import {
  type GeneratedVariants,
  inContainer,
  type SeededVariants,
  type Task,
  type WorkspaceTask,
} from '../tasks/types.js';
import { generateInstance } from '../tasks/variants/generate.js';
import { defaultInstanceDir, type InstanceCache, instanceCache } from '../tasks/variants/instance-cache.js';
import { DEFAULT_VARIANT_SEED, instanceSeed } from '../tasks/variants/instance-seed.js';
import { instanceDigest } from '../tasks/variants/instance-tree.js';
import { taskVersion } from '../tasks/version.js';
import { errorMessage, InternalError } from '../util/errors.js';
import type { ValidationRow } from './rows.js';

/** What validate proves: a task, or one instance of a variant task (its rows name the instance). */
export interface ProofUnit {
  task: Task;
  instance?: string;
}

export async function proofUnits(
  tasks: readonly Task[],
  o: {
    n: number;
    parallel: number;
    openSandbox: (task: WorkspaceTask) => Promise<Sandbox>;
    /** The instance's proof is cached under the key of what it is now. */
    proven: (instance: Task) => Promise<boolean>;
  },
): Promise<{ units: ProofUnit[]; rows: ValidationRow[] }> {
  const drawn: { units: ProofUnit[]; rows: ValidationRow[] }[] = tasks.map(() => ({ units: [], rows: [] }));
  const cache = instanceCache(defaultInstanceDir());
  await runPool(o.parallel, [...tasks.keys()], async (i) => {
    const task = tasks[i] as Task;
    const variants = task.variants;
    if (variants === undefined) drawn[i] = { units: [{ task }], rows: [] };
    else if (variants.drawn === 'harness') drawn[i] = seededUnits(task, variants, o.n);
    else drawn[i] = await generatedUnits(task, variants, o, cache);
  });
  return { units: drawn.flatMap((d) => d.units), rows: drawn.flatMap((d) => d.rows) };
}

/**
 * The first n instances of a generated variant task, each drawn twice to show the generator
 * deterministic (but for one whose proof is cached), in a sandbox of the task's own.
 */
async function generatedUnits(
  task: Task,
  variants: GeneratedVariants<Task>,
  o: Pick<Parameters<typeof proofUnits>[1], 'n' | 'openSandbox' | 'proven'>,
  cache: InstanceCache,
): Promise<{ units: ProofUnit[]; rows: ValidationRow[] }> {
  if (!inContainer(task)) throw new InternalError(`${task.id}: a generator runs in the task's container`);
  const out: { units: ProofUnit[]; rows: ValidationRow[] } = { units: [], rows: [] };
  const sandbox = await o.openSandbox(task);
  try {
    for (const id of firstInstances(task, o.n)) {
      const run = `instance ${id}: generator`;
      try {
        const first = await generateInstance(task.id, variants, id, sandbox);
        await cache.save(variants.digest, id, first);
        const instance = variants.instanceOf(first, id);
        if (!(await o.proven(instance))) {
          const second = await generateInstance(task.id, variants, id, sandbox);
          if (instanceDigest(first) !== instanceDigest(second)) {
            out.rows.push({
              taskId: task.id,
              run,
              kind: 'failed',
              detail: 'two runs of one SEED wrote different instances: the generator is not deterministic',
            });
            continue;
          }
        }
        out.units.push({ task: instance, instance: id });
      } catch (err) {
        out.rows.push({ taskId: task.id, run, kind: 'failed', detail: errorMessage(err) });
      }
    }
  } finally {
    await sandbox.dispose();
  }
  return out;
}

/**
 * The first n instances of a task drawn in the harness from the id alone (a dialogue scenario's: a
 * pure function, so drawn once); one that does not draw (its gold actions fail) is a failed row.
 */
function seededUnits(
  task: Task,
  variants: SeededVariants<Task>,
  n: number,
): { units: ProofUnit[]; rows: ValidationRow[] } {
  const units: ProofUnit[] = [];
  const rows: ValidationRow[] = [];
  for (const id of firstInstances(task, n)) {
    try {
      units.push({ task: variants.instanceOf(id), instance: id });
    } catch (err) {
      rows.push({ taskId: task.id, run: `instance ${id}: draw`, kind: 'failed', detail: errorMessage(err) });
    }
  }
  return { units, rows };
}

/** The ids of the first n instances a run of the task draws (the default variant seed). */
function firstInstances(task: Task, n: number): string[] {
  const version = taskVersion(task);
  return Array.from({ length: n }, (_, trialIndex) =>
    instanceSeed({ taskId: task.id, taskVersion: version, variantSeed: DEFAULT_VARIANT_SEED, trialIndex }),
  );
}
