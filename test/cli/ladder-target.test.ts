/** `ladder --target` options that contradict each other: one line each, before anything runs. */
import { describe, expect, it } from 'vitest';
import { type LadderCliOptions, ladderCommand } from '../../src/cli/commands/ladder.js';
import { UsageError } from '../../src/util/errors.js';

const base = { k: 1, earlyStop: false, tasks: 'all', parallel: 1 } as LadderCliOptions;

describe('ladder --target options', () => {
  it('refuses --k and --early-stop with a target below 1', async () => {
    await expect(ladderCommand({ ...base, target: 0.8, k: 3 })).rejects.toThrow(
      new UsageError('--k does not go with --target: each rung runs up to --max-k trials per task'),
    );
    await expect(ladderCommand({ ...base, target: 0.8, earlyStop: true })).rejects.toThrow(
      new UsageError('--early-stop does not go with --target: a rung stops when its bound decides'),
    );
  });

  it('refuses --confidence and --max-k without a target below 1', async () => {
    for (const extra of [{ confidence: 0.95 }, { maxK: 10, target: 1 }]) {
      await expect(ladderCommand({ ...base, ...extra })).rejects.toThrow(
        new UsageError('--confidence and --max-k go with --target below 1 (a sequential ladder)'),
      );
    }
  });
});
