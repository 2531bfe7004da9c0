import type { ResultFile, RunSettings } from '../results/result-file.js';
import { readResultFiles } from '../results/store.js';
import { canonicalJson } from '../util/hash.js';

/**
 * The newest earlier result of this task and model that can be continued: same task version and same
 * settings (otherwise its trials would not compare with the new ones). null when there is none.
 */
export async function findResumable(
  dir: string,
  taskId: string,
  model: string,
  taskVersion: string,
  settings: RunSettings,
): Promise<ResultFile | null> {
  // A corrupted or hand-edited file is never continued: it is not among the results.
  const candidates = (await readResultFiles(dir)).results
    .map((f) => f.result)
    .filter(
      (r) =>
        r.task_id === taskId &&
        r.model === model &&
        r.task_version === taskVersion &&
        canonicalJson(r.settings) === canonicalJson(settings),
    )
    .sort((a, b) => b.started_at.localeCompare(a.started_at));
  return candidates[0] ?? null;
}
