/**
 * context_manage_v1's checks: every stale module seen before its first change (searching counts for
 * the lines it printed),
 * the hidden consistency test passing, and no loop of re-reading the same content.
 */
import {
  type CheckContext,
  type FlagOutcome,
  groundTruthPasses,
  HIDDEN_DIR,
  harnessPytest,
  knownFiles,
  linesContaining,
  readAnyWorkspaceFile,
  readBeforeChange,
  readRepeats,
} from '../../src/kit/index.js';

/** The modules with their own copy of the old rate (files/services/), as the task generated them. */
export const STALE_MODULES: readonly string[] = ['invoicing', 'quotes', 'subscriptions', 'refunds'];
/** The old rate each stale module hardcodes. */
const STALE_RATE = '0.07';
const HIDDEN = 'test_hidden_consistency.py';
const GROUND_TRUTH = harnessPytest(`${HIDDEN_DIR}/${HIDDEN}`);
/** More reads of the same content of one file (the same lines, unchanged in between) than this is a loop. */
const READ_REPEAT_LIMIT = 3;

const miss = (detail: string): FlagOutcome => ({ reached: false, detail });
const servicePath = (module: string): string => `services/${module}.py`;

export function filesSurveyed(ctx: CheckContext): FlagOutcome {
  const firsts: number[] = [];
  const missing: string[] = [];
  for (const module of STALE_MODULES) {
    const path = servicePath(module);
    const content = ctx.setupFiles.get(path) ?? '';
    // The part that matters: the lines holding the stale rate, however the search found them, shown
    // in a turn before the one that decided the module's first change (a survey that informed it).
    const need = { atLeast: 0.5, lines: linesContaining(content, [STALE_RATE]) };
    const read = readBeforeChange(ctx, path, need);
    if (read.reached && read.turn !== null) firsts.push(read.turn);
    else missing.push(path);
  }
  if (missing.length > 0) return miss(`not seen before it was changed: ${missing.join(', ')}`);
  return { reached: true, turn: Math.max(...firsts) };
}

export async function consistencyFixed(ctx: CheckContext): Promise<FlagOutcome> {
  return (await groundTruthPasses(ctx, GROUND_TRUTH))
    ? { reached: true, turn: null }
    : miss('the hidden consistency test fails');
}

export function noReadLoops(ctx: CheckContext): FlagOutcome {
  if (!readAnyWorkspaceFile(ctx)) return miss('no workspace file was read');
  const loops = [...readRepeats(ctx, knownFiles(ctx))].filter(([, n]) => n > READ_REPEAT_LIMIT);
  if (loops.length > 0) return miss(`read too often: ${loops.map(([key, n]) => `${key} x${n}`).join(', ')}`);
  return { reached: true, turn: null };
}
