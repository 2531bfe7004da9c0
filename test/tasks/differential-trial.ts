/**
 * A built-in task's differential check run for real on the host: its hidden files (the reference
 * folder) from the task folder or from an instance its generator draws here, the final workspace as
 * given, the runners through the local node and python3 (test/kit/local-ground-truth.ts).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { CheckContext, FlagOutcome } from '../../src/kit/index.js';
import { localGroundTruth } from '../kit/local-ground-truth.js';

const TASKS = join(import.meta.dirname, '..', '..', 'tasks');

/** A task instance's folder: the task folder itself, or what its generator wrote. */
export interface InstanceFolder {
  instance: Readonly<Record<string, unknown>>;
  /** A file of the instance, by its path in the folder (`solution/stats.mjs`). */
  file(path: string): string;
  hidden: Readonly<Record<string, string>>;
  cleanup(): void;
}

function filesUnder(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }))
      if (e.isDirectory()) walk(join(d, e.name));
      else out[relative(dir, join(d, e.name))] = readFileSync(join(d, e.name), 'utf8');
  };
  walk(dir);
  return out;
}

function folderAt(dir: string, cleanup: () => void): InstanceFolder {
  let instance: Record<string, unknown> = {};
  try {
    instance = JSON.parse(readFileSync(join(dir, 'instance.json'), 'utf8')) as Record<string, unknown>;
  } catch {
    // A task without variants has no instance: {} as for its checks.
  }
  return {
    instance,
    file: (path) => readFileSync(join(dir, path), 'utf8'),
    hidden: filesUnder(join(dir, 'hidden')),
    cleanup,
  };
}

/** The task folder as its own instance. */
export function folderInstance(id: string): InstanceFolder {
  return folderAt(join(TASKS, id), () => {});
}

/** The instance `seed` of a variant task, drawn by its generator here (node or python3 by its #!). */
export function generatedInstance(id: string, generator: string, seed: string): InstanceFolder {
  const out = join(mkdtempSync(join(tmpdir(), `${id}-instance-`)), 'out');
  execFileSync(join(TASKS, id, generator), [seed, out], { stdio: 'ignore' });
  return folderAt(out, () => rmSync(join(out, '..'), { recursive: true, force: true }));
}

type Check = (ctx: Pick<CheckContext, 'groundTruth' | 'instance'>) => Promise<FlagOutcome>;

/** The check's verdict on a final workspace of these files. */
export async function judgeDifferential(
  check: Check,
  folder: InstanceFolder,
  workspace: Readonly<Record<string, string>>,
): Promise<FlagOutcome> {
  const truth = localGroundTruth(workspace, folder.hidden);
  try {
    return await check({ groundTruth: truth, instance: folder.instance });
  } finally {
    truth.cleanup();
  }
}
