/**
 * Every sandbox a run opens, kept so that stopping the run can remove them all at once instead of
 * waiting for each trial to notice the abort. Each task run reuses and disposes its own; dispose()
 * is idempotent, so a sandbox removed here and again by its task run is harmless.
 */
import type { RunSettings } from '../results/result-file.js';
import type { DockerSandboxOptions } from '../sandbox/index.js';
import type { Sandbox } from '../sandbox/types.js';
import type { Task } from '../tasks/types.js';
import { InternalError, InterruptedError } from '../util/errors.js';
import { containerOptions } from './container-options.js';

export interface SandboxPoolOptions {
  create: (o: DockerSandboxOptions) => Promise<Sandbox>;
  /** The run's image tag; null in a run that needs no engine (dialogue tasks only). */
  image: string | null;
  limits: RunSettings['limits'];
  /** Labels every container with the run, so a later run can sweep what this one left. */
  runId: string;
  note: (line: string) => void;
}

export interface SandboxPool {
  open(task: Task): Promise<Sandbox>;
  /** Removes every sandbox opened, and any that finishes opening later (the run is stopping). */
  close(): Promise<void>;
}

export function createSandboxPool(o: SandboxPoolOptions): SandboxPool {
  const open = new Set<Sandbox>();
  let closed = false;
  const discard = (sandbox: Sandbox): Promise<void> => sandbox.dispose().catch(() => {});
  return {
    async open(task) {
      if (o.image === null)
        throw new InternalError(`${task.id}: a sandbox was asked for in a run without one`);
      if (task.environment.place !== 'container')
        throw new InternalError(`${task.id}: its trials run in the harness, not in a sandbox`);
      const sandbox = await o.create(
        await containerOptions(task.environment, {
          image: o.image,
          limits: o.limits,
          labels: { run: o.runId, task: task.id },
          note: o.note,
        }),
      );
      open.add(sandbox);
      // Created while the run was being stopped: the cleanup has already been through `open`.
      if (closed) {
        await discard(sandbox);
        throw new InterruptedError('interrupted');
      }
      return sandbox;
    },
    async close() {
      closed = true;
      await Promise.all([...open].map(discard));
    },
  };
}
