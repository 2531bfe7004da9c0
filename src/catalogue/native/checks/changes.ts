/** When the files a check is ordered against changed: the first or last change of each that did. */
import { firstChangeTurn, lastChangeTurn } from '../../../scoring/check-helpers.js';
import { afterChange, beforeChange, type StepRef } from '../../../scoring/ordering.js';
import type { CheckContext } from '../../../tasks/types.js';

export interface Change {
  path: string;
  turn: number;
}

/** Each of `paths` that changed, with the turn its first (or last) change was seen in. */
export function changesOf(
  ctx: Pick<CheckContext, 'firstChangeTurn' | 'changeTurns'>,
  paths: readonly string[],
  which: 'first' | 'last',
): Change[] {
  return paths.flatMap((path) => {
    const turn = which === 'first' ? firstChangeTurn(ctx, path) : lastChangeTurn(ctx, path);
    return turn === null ? [] : [{ path, turn }];
  });
}

export function beforeEvery(
  ctx: Pick<CheckContext, 'calls'>,
  at: StepRef,
  changes: readonly Change[],
): boolean {
  return changes.every((c) => beforeChange(ctx, at, c.path, c.turn));
}

export function afterEvery(
  ctx: Pick<CheckContext, 'calls'>,
  at: StepRef,
  changes: readonly Change[],
): boolean {
  return changes.every((c) => afterChange(ctx, at, c.path, c.turn));
}
