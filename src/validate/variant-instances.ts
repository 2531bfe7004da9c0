/**
 * `validate --variants N`: a variant task is proven on N of its instances, the first N a run with
 * the default seed draws (so the instances proven are those trials run), each drawn twice to show
 * the generator deterministic (a seeded dialogue scenario's are drawn in the harness, no sandbox).
 * A task without variants is proven as it is, at no extra cost.
 */
import type { Sandbox } from '../sandbox/types.js';
import type { DialogueTask, Task, WorkspaceTask } from '../tasks/types.js';
import { generateInstance } from '../tasks/variants/generate.js';
import { defaultInstanceDir, instanceCache } from '../tasks/variants/instance-cache.js';
import { DEFAULT_VARIANT_SEED, instanceSeed } from '../tasks/variants/instance-seed.js';
import { instanceDigest } from '../tasks/variants/instance-tree.js';
import { isVariantKind, variantsOf } from '../tasks/variants/instances.js';
import { taskVersion } from '../tasks/version.js';
import { errorMessage } from '../util/errors.js';
import type { ValidationRow } from './rows.js';

/** What validate proves: a task, or one instance of a variant task (its rows name the instance). */
export interface ProofUnit {
  task: Task;
  instance?: string;
}

export async function proofUnits(
  tasks: readonly Task[],
  n: number,
  openSandbox: (task: WorkspaceTask) => Promise<Sandbox>,
): Promise<{ units: ProofUnit[]; rows: ValidationRow[] }> {
  const units: ProofUnit[] = [];
  const rows: ValidationRow[] = [];
  const cache = instanceCache(defaultInstanceDir());
  for (const task of tasks) {
    if (task.kind === 'dialogue' && task.dialogue.variants !== undefined) {
      const drawn = dialogueUnits(task, task.dialogue.variants, n);
      units.push(...drawn.units);
      rows.push(...drawn.rows);
      continue;
    }
    const variants = variantsOf(task);
    if (variants === undefined || !isVariantKind(task)) {
      units.push({ task });
      continue;
    }
    const sandbox = await openSandbox(task);
    try {
      for (const id of firstInstances(task, n)) {
        const run = `instance ${id}: generator`;
        try {
          const first = await generateInstance(task, id, sandbox);
          const second = await generateInstance(task, id, sandbox);
          if (instanceDigest(first) !== instanceDigest(second)) {
            rows.push({
              taskId: task.id,
              run,
              kind: 'failed',
              detail: 'two runs of one SEED wrote different instances: the generator is not deterministic',
            });
            continue;
          }
          await cache.save(variants.digest, id, first);
          units.push({ task: variants.instanceOf(first, id), instance: id });
        } catch (err) {
          rows.push({ taskId: task.id, run, kind: 'failed', detail: errorMessage(err) });
        }
      }
    } finally {
      await sandbox.dispose();
    }
  }
  return { units, rows };
}

/**
 * The first n instances of a seeded dialogue scenario, drawn in the harness from the id alone (a
 * pure function, so drawn once); one that does not draw (its gold actions fail) is a failed row.
 */
function dialogueUnits(
  task: DialogueTask,
  variants: NonNullable<DialogueTask['dialogue']['variants']>,
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
