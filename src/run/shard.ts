/** `--shard i/N`: which share of a run's trials one machine takes (dealt by dealTrials, shard-record.ts). */
import { UsageError } from '../util/errors.js';

export interface ShardSpec {
  /** 1-based. */
  index: number;
  count: number;
}

/** More shards than this is a typo, not a cluster. */
const MAX_SHARDS = 10_000;

/** `2/3` -> shard 2 of 3; anything else is a one-line usage error. */
export function parseShard(text: string): ShardSpec {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (m === null) throw new UsageError(`--shard must be i/N, e.g. 2/3 (shard 2 of 3), got "${text}"`);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || count > MAX_SHARDS)
    throw new UsageError(`--shard ${text}: N must be between 1 and ${MAX_SHARDS}`);
  if (index < 1 || index > count)
    throw new UsageError(`--shard ${text}: i must be between 1 and N (${count}); shards count from 1`);
  return { index, count };
}
