import { conditionOf, type RunCondition } from '../results/condition.js';
import type { ResultFile, RunSettings, ShardRecord } from '../results/result-file.js';
import { readResultFiles } from '../results/store.js';
import type { SimulatedUserRecord } from '../results/trial.js';
import { canonicalJson } from '../util/hash.js';

/**
 * The newest earlier result of this task and model that can be continued: same task version, same
 * settings and same condition (otherwise its trials would not compare with the new ones), and the
 * same shard of the same run or no shard (a shard never continues another's trials), and for a
 * dialogue task the same simulated user (a model playing the employee measures something else than
 * the scripted one). null when there is none.
 */
export async function findResumable(
  dir: string,
  taskId: string,
  model: string,
  taskVersion: string,
  settings: RunSettings,
  condition: RunCondition,
  shard?: ShardRecord,
  user: SimulatedUserRecord = { kind: 'scripted' },
): Promise<ResultFile | null> {
  // A corrupted or hand-edited file is never continued: it is not among the results.
  const candidates = (await readResultFiles(dir)).results
    .map((f) => f.result)
    .filter(
      (r) =>
        r.task_id === taskId &&
        r.model === model &&
        r.task_version === taskVersion &&
        canonicalJson(r.settings) === canonicalJson(settings) &&
        canonicalJson(conditionOf(r)) === canonicalJson(condition) &&
        canonicalJson(r.shard ?? null) === canonicalJson(shard ?? null) &&
        r.trials.every(
          (t) => t.dialogue === undefined || canonicalJson(t.dialogue.user) === canonicalJson(user),
        ),
    )
    .sort((a, b) => b.started_at.localeCompare(a.started_at));
  return candidates[0] ?? null;
}
