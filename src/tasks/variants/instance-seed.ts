/**
 * Which instance of a variant task trial i gets: a pure function of the task (its id and version,
 * which hashes the generator), the run's variant seed and the trial's index, so a resumed run, every
 * shard of a run and a run on another machine draw the same instances. The value is the generator's
 * SEED and the instance's id at once: `--variant ID` replays it as it is.
 */
import { canonicalJson, sha256 } from '../../util/hash.js';

/** The variant seed a run uses when none is given: fixed, so two runs of one task compare. */
export const DEFAULT_VARIANT_SEED = 1;

export interface InstanceDraw {
  taskId: string;
  taskVersion: string;
  variantSeed: number;
  trialIndex: number;
}

/** 16 hex digits: the instance id, passed to the generator as its SEED. */
export function instanceSeed(d: InstanceDraw): string {
  return sha256(
    canonicalJson({ task: d.taskId, version: d.taskVersion, seed: d.variantSeed, trial: d.trialIndex }),
  ).slice(0, 16);
}

/** An instance id as `--variant` takes it (what instanceSeed makes, or a generator's own SEED). */
export const INSTANCE_ID = /^[A-Za-z0-9_-]{1,64}$/;
