/**
 * Which trials are a shard's (`--shard i/N`, recorded in a results file's `shard`). They are dealt,
 * not hashed: the run's trials are listed in a fixed order (task ids sorted by code point, then trial
 * numbers) and dealt round-robin, the p-th (from 0) to shard p mod N + 1. The list depends only on the
 * task ids and k, so the order of `--tasks` (or `--models`) on the command line changes nothing; every
 * shard gets the same number of trials (give or take one) and a mix of every task, so their times
 * come out alike. With early stop a task is dealt whole: its trials stop at its first failure, in
 * trial order, which only one machine can see.
 */
import type { ShardRecord } from './result-file.js';

/** The trials (ascending) of each task that the shard owns; a task it owns none of is left out. */
export function dealTrials(
  spec: Pick<ShardRecord, 'index' | 'count'>,
  taskIds: readonly string[],
  k: number,
  earlyStop: boolean,
): Map<string, number[]> {
  const share = new Map<string, number[]>();
  let position = 0;
  for (const id of sortedIds(taskIds)) {
    const trials = Array.from({ length: k }, (_, t) => t);
    // Dealt whole under early stop: one position for the task.
    const units = earlyStop ? [trials] : trials.map((t) => [t]);
    for (const unit of units) {
      if (position % spec.count === spec.index - 1) share.set(id, [...(share.get(id) ?? []), ...unit]);
      position++;
    }
  }
  return share;
}

/** Task ids in the order trials are dealt: by code point, whatever the locale. */
export function sortedIds(ids: Iterable<string>): string[] {
  return [...new Set(ids)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
