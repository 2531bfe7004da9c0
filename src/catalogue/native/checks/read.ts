/**
 * `read`: the model was shown enough of a file of the starting workspace, in any output (read_file,
 * or any command: src/scoring/seen.ts), optionally before it or other files first changed.
 */
import { blockAt, linesContaining } from '../../../evidence/coverage.js';
import { toRegExp } from '../../../manifest/regex.js';
import { workspaceAbsolute } from '../../../scoring/paths.js';
import { firstRead, type ReadNeed } from '../../../scoring/seen.js';
import type { CheckContext, FlagOutcome } from '../../../tasks/types.js';
import type { FlagEntry } from '../flag-entry.js';
import { beforeEvery, changesOf } from './changes.js';

type ReadSpec = NonNullable<FlagEntry['read']>;

/** What must have been shown, with the block or lines found once in the file as the task placed it. */
export function readNeed(spec: ReadSpec, setupContent: string): ReadNeed {
  const block = spec.block === undefined ? undefined : toRegExp(spec.block);
  const lines =
    block !== undefined
      ? (blockAt(setupContent, block) ?? [])
      : spec.lines_containing !== undefined
        ? linesContaining(setupContent, spec.lines_containing)
        : undefined;
  return { atLeast: spec.at_least ?? 0.5, ...(lines === undefined ? {} : { lines }) };
}

export function readCheck(spec: ReadSpec, need: ReadNeed) {
  const order = spec.before_first_change_of ?? [];
  return (ctx: CheckContext): FlagOutcome => {
    const changes = changesOf(ctx, order, 'first');
    if (spec.require_change === true && changes.length === 0)
      return { reached: false, detail: `none of ${order.join(', ')} changed` };
    const read = firstRead(ctx, workspaceAbsolute(spec.file), need, (at) => beforeEvery(ctx, at, changes));
    if (read !== undefined) return { reached: true, turn: read.turn };
    return {
      reached: false,
      detail:
        order.length === 0
          ? `${spec.file} was never read`
          : `${spec.file} was not read before ${order.join(', ')} changed`,
    };
  };
}
