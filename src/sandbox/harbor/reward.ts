/**
 * A Harbor verifier's reward, as Harbor reads it: /logs/verifier/reward.txt (one number), else
 * reward.json (named numbers), every metric kept. Harbor declares no primary metric in a task (its
 * metrics are the job's), so the score is the metric named `reward` (what Harbor's rewardkit names
 * the combined one), else the only one, else the mean of them all, which the reward says.
 */
import type { HarborReward } from '../types.js';

export function readReward(txt: string | null, json: string | null): HarborReward {
  if (txt !== null) {
    const t = txt.trim();
    const n = Number(t);
    if (t === '' || !Number.isFinite(n))
      return { ok: false, problem: `reward.txt holds ${JSON.stringify(t.slice(0, 40))}, not a number` };
    return { ok: true, reward: n, metrics: {} };
  }
  if (json === null)
    return { ok: false, problem: 'the verifier wrote neither /logs/verifier/reward.txt nor reward.json' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (err) {
    return { ok: false, problem: `reward.json is not JSON: ${(err as Error).message}` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return { ok: false, problem: 'reward.json is not an object of named numbers' };
  const entries = Object.entries(parsed);
  const bad = entries.find(([, v]) => typeof v !== 'number' || !Number.isFinite(v));
  if (bad !== undefined) return { ok: false, problem: `reward.json: ${bad[0]} is not a number` };
  const metrics = Object.fromEntries(entries) as Record<string, number>;
  if (entries.length === 0) return { ok: false, problem: 'reward.json has no metric' };
  const named = metrics.reward ?? (entries.length === 1 ? (entries[0]?.[1] as number) : undefined);
  if (named !== undefined) return { ok: true, reward: named, metrics };
  const values = Object.values(metrics);
  return { ok: true, reward: values.reduce((a, b) => a + b, 0) / values.length, metrics, mean: true };
}
