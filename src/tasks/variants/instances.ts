/**
 * The instances of a variant task, by id: a generated one is the cached one when this machine drew
 * it before, else the generator's output in the sandbox given (the trial's own, or validate's), kept
 * for next time; a seeded one is drawn in the harness from the id alone.
 */
import type { Sandbox } from '../../sandbox/types.js';
import { InternalError } from '../../util/errors.js';
import type { Task } from '../types.js';
import { generateInstance } from './generate.js';
import { defaultInstanceDir, type InstanceCache, instanceCache } from './instance-cache.js';

/** Whether trials of the task draw instances. */
export function hasVariants(task: Task): boolean {
  return task.variants !== undefined;
}

/** The instance values a task's flag code reads (`ctx.instance`): {} for a task without variants. */
export function instanceValuesOf(task: Task): Readonly<Record<string, unknown>> {
  return task.variants?.values ?? {};
}

export interface InstanceSource {
  /** The task's instance `id`: drawn in the harness, or by its generator in `sandbox` when not cached. */
  instance(task: Task, id: string, sandbox: () => Promise<Sandbox>): Promise<Task>;
}

export function instanceSource(cache: InstanceCache = instanceCache(defaultInstanceDir())): InstanceSource {
  return {
    async instance(task, id, sandbox) {
      const variants = task.variants;
      if (variants === undefined)
        throw new InternalError(`${task.id}: an instance asked of a task without variants`);
      if (variants.drawn === 'harness') return variants.instanceOf(id);
      let tree = await cache.load(variants.digest, id);
      if (tree === null) {
        tree = await generateInstance(task.id, variants, id, await sandbox());
        await cache.save(variants.digest, id, tree);
      }
      return variants.instanceOf(tree, id);
    },
  };
}
