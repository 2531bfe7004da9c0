/**
 * A Harbor task folder that cannot run here (a broken task.toml, a missing file, a multi-step
 * layout): kept, not thrown, so one bad task of a published folder stops none of the others. `list`
 * shows it with why, `validate` fails its row (prove.ts), and a run gets it as the task below.
 */

import type { HarborTask as HarborTaskOf } from '../../tasks/types.js';
import { UsageError } from '../../util/errors.js';
import { HARBOR_MAX_TURNS } from './as-task.js';
import { REWARD_FLAG } from './verify.js';

export interface UnusableHarborTask {
  /** The folder's name. */
  id: string;
  /** Absolute path of the folder. */
  dir: string;
  /** Its problems, one a line, each naming the file. */
  problem: string;
}

/**
 * A Harbor folder that cannot run, as a task of the run all the same: its image cannot be had, so
 * each trial is an error (the harness's, never the model's) that says why, and the task ends in
 * error while the others go on.
 */
export function unusableHarborAsTask(u: UnusableHarborTask): HarborTaskOf {
  const why = (): UsageError =>
    new UsageError(`Harbor task ${u.id} cannot run: ${u.problem.replace(/\n/g, '; ')}`);
  return {
    kind: 'harbor',
    id: u.id,
    meta: {
      domain: 'harbor',
      difficulty: 'medium',
      description: `Harbor task from ${u.dir} (cannot run)`,
      optimalSteps: 2,
    },
    prompt: '',
    maxTurns: HARBOR_MAX_TURNS,
    environment: {
      place: 'container',
      image: () => Promise.reject(why()),
      limits: { cpus: 1, memory_mb: 2048 },
      mounts: [],
      agentTimeoutSec: 600,
    },
    judge: { by: 'verifier', verify: () => Promise.reject(why()) },
    allowedWrites: ['**'],
    ignored: [],
    files: [],
    mountedFiles: [],
    flags: [
      {
        id: REWARD_FLAG,
        kind: 'outcome',
        description: `tests/test.sh gives a reward of 1 (Harbor task that cannot run: ${u.problem.split('\n')[0]})`,
        check() {
          throw why();
        },
      },
    ],
    referenceSolution: [{ text: 'the task cannot run', calls: [] }],
  };
}
