/** The run's sandboxes: what each is created with, and that stopping removes them all, late ones too. */
import { describe, expect, it } from 'vitest';
import type { RunSettings } from '../../src/results/result-file.js';
import { createSandboxPool } from '../../src/run/sandbox-pool.js';
import type { DockerSandboxOptions } from '../../src/sandbox/index.js';
import type { Task } from '../../src/tasks/types.js';
import { InternalError, InterruptedError } from '../../src/util/errors.js';
import { SAY_DONE } from '../helpers/memory-run.js';
import { memorySandbox } from '../helpers/memory-sandbox.js';

const LIMITS = { cpus: 1, memory_mb: 512, pids: 128 } as unknown as RunSettings['limits'];

function counted() {
  const created: DockerSandboxOptions[] = [];
  let disposed = 0;
  const create = async (o: DockerSandboxOptions) => {
    created.push(o);
    return { ...memorySandbox(), dispose: async () => void disposed++ };
  };
  return { created, create, disposed: () => disposed };
}

describe('createSandboxPool', () => {
  it("creates a task's sandbox from the run's image and limits, labelled with the run and task", async () => {
    const c = counted();
    const pool = createSandboxPool({
      create: c.create,
      image: 'img:1',
      limits: LIMITS,
      runId: 'r1',
      note: () => {},
    });
    await pool.open(SAY_DONE);
    expect(c.created).toEqual([{ image: 'img:1', limits: LIMITS, labels: { run: 'r1', task: SAY_DONE.id } }]);
  });

  it("gives a task its environment's own image, its tools volume and resources (a Harbor task's)", async () => {
    const c = counted();
    const task: Task = {
      ...SAY_DONE,
      kind: 'harbor',
      environment: {
        place: 'container',
        image: async () => ({ image: 'harbor:2', toolsVolume: 'tools-1' }),
        limits: { cpus: 4, memory_mb: 2048 },
        mounts: [],
      },
    };
    const pool = createSandboxPool({
      create: c.create,
      image: 'img:1',
      limits: LIMITS,
      runId: 'r',
      note: () => {},
    });
    await pool.open(task);
    expect(c.created[0]?.image).toBe('harbor:2');
    expect(c.created[0]?.toolsVolume).toBe('tools-1');
    expect(c.created[0]?.limits).toEqual({ ...LIMITS, cpus: 4, memory_mb: 2048 });
  });

  it('removes every sandbox on close, and one that finishes opening after it at once', async () => {
    const c = counted();
    const pool = createSandboxPool({
      create: c.create,
      image: 'img',
      limits: LIMITS,
      runId: 'r',
      note: () => {},
    });
    await pool.open(SAY_DONE);
    await pool.open(SAY_DONE);
    await pool.close();
    expect(c.disposed()).toBe(2);
    await expect(pool.open(SAY_DONE)).rejects.toBeInstanceOf(InterruptedError);
    expect(c.disposed()).toBe(3);
  });

  it('refuses a sandbox in a run without an image (a bug: only dialogue tasks were expected)', async () => {
    const c = counted();
    const pool = createSandboxPool({
      create: c.create,
      image: null,
      limits: LIMITS,
      runId: 'r',
      note: () => {},
    });
    await expect(pool.open(SAY_DONE)).rejects.toBeInstanceOf(InternalError);
  });
});
