/**
 * The instances of a variant task, by id: the cached one when this machine drew it before, else the
 * generator's output in the sandbox given (the trial's own, or validate's), kept for next time.
 */
import type { Sandbox } from '../../sandbox/types.js';
import { InternalError } from '../../util/errors.js';
import type { SandboxTask, SkillTask, Task, VariantsRef } from '../types.js';
import { generateInstance } from './generate.js';
import { defaultInstanceDir, type InstanceCache, instanceCache } from './instance-cache.js';

/** The kinds of task that can have variants: a task folder's and a skill folder's. */
export type VariantTask = SandboxTask | SkillTask;

export function isVariantKind(task: Task): task is VariantTask {
  return task.kind === 'sandbox' || task.kind === 'skill';
}

/** The task's [variants], when it has them: only a task folder and a skill folder can. */
export function variantsOf(task: Task): VariantsRef<SandboxTask> | VariantsRef<SkillTask> | undefined {
  if (task.kind === 'sandbox') return task.folder?.variants;
  return task.kind === 'skill' ? task.variants : undefined;
}

/** Whether trials of the task draw instances: a folder's [variants], or a dialogue scenario's pools. */
export function hasVariants(task: Task): boolean {
  return variantsOf(task) !== undefined || (task.kind === 'dialogue' && task.dialogue.variants !== undefined);
}

/** The instance values a task's flag code reads (`ctx.instance`): {} for a task without variants. */
export function instanceValuesOf(task: Task): Readonly<Record<string, unknown>> {
  return variantsOf(task)?.values ?? {};
}

export interface InstanceSource {
  /** The task's instance `id`, drawn in `sandbox` when it is not cached. */
  instance<T extends VariantTask>(task: T, id: string, sandbox: () => Promise<Sandbox>): Promise<T>;
}

export function instanceSource(cache: InstanceCache = instanceCache(defaultInstanceDir())): InstanceSource {
  return {
    async instance(task, id, sandbox) {
      const variants = variantsOf(task);
      if (variants === undefined)
        throw new InternalError(`${task.id}: an instance asked of a task without [variants]`);
      let tree = await cache.load(variants.digest, id);
      if (tree === null) {
        tree = await generateInstance(task, id, await sandbox());
        await cache.save(variants.digest, id, tree);
      }
      // A task folder's variants make task folders, a skill folder's skills: the kind of `task`.
      return variants.instanceOf(tree, id) as typeof task;
    },
  };
}
