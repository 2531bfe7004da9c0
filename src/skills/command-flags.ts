/** The flags about the commands a skill requires: one per command group, their order, re-checks. */
import { expandBraces, hasGlob } from '../scoring/operands.js';
import type { CheckContext, Flag, FlagOutcome } from '../tasks/types.js';
import { type CommandGroup, groupRuns, inOrder, type Matcher } from './command-match.js';
import type { Invocation } from './invocations.js';
import { shellQuote } from './shell-quote.js';
import { stubLog } from './stub-log.js';

const miss = (detail: string): FlagOutcome => ({ reached: false, detail });

export function describeGroup(g: CommandGroup): string {
  const res = g.patterns.map((re) => `/${re.source}/${re.flags}`).join(' or ');
  const exit = g.exitCode === null ? '' : ` with exit code ${g.exitCode}`;
  return g.description ?? `Ran a command that ${res} names as the program it runs${exit}`;
}

export function commandFlag(g: CommandGroup, m: Matcher): Flag {
  return {
    id: `cmd:${g.id}`,
    kind: 'process',
    description: `${describeGroup(g)} (from the harness's parse of the commands that ran; a stubbed script counts when its stub recorded the run).`,
    async check(ctx) {
      const { runs, near } = await groupRuns(ctx, g, m);
      const first = runs[0];
      return first === undefined
        ? miss(near ?? 'no such command ran')
        : { reached: true, turn: first.inv.turn };
    },
  };
}

export function orderFlag(groups: readonly CommandGroup[], m: Matcher): Flag {
  return {
    id: 'commands_in_order',
    kind: 'process',
    description: `The required commands ran in the listed order (${groups.map((g) => `cmd:${g.id}`).join(', ')}).`,
    async check(ctx) {
      const perGroup = await Promise.all(groups.map(async (g) => (await groupRuns(ctx, g, m)).runs));
      if (perGroup.some((runs) => runs.length === 0)) return miss('not every required command ran');
      if (!inOrder(perGroup)) return miss('the required commands did not run in order');
      return {
        reached: true,
        turn: Math.max(...perGroup.map((runs) => (runs[0] as { inv: Invocation }).inv.turn)),
      };
    },
  };
}

/**
 * After the last turn the harness re-runs the agent's last run of the command (as root, in the
 * directory it ran in, every agent process dead) and expects the same exit code: the step still
 * holds on the final workspace, not only when the agent ran it.
 */
export function recheckFlag(g: CommandGroup, m: Matcher): Flag {
  return {
    id: `recheck:${g.id}`,
    kind: 'outcome',
    description: `The harness re-runs the agent's last run of cmd:${g.id} after the last turn and it exits ${g.exitCode}.`,
    async check(ctx) {
      await stubLog(ctx); // read before any re-run appends to it
      const last = (await groupRuns(ctx, g, m)).runs.at(-1);
      if (last === undefined) return miss(`cmd:${g.id} never ran`);
      const line = rerunLine(last.inv);
      if (line === null) return miss('the run happened in a directory the harness cannot tell');
      const r = await ctx.groundTruth.run(line);
      return r.exitCode === g.exitCode && !r.timedOut
        ? { reached: true, turn: null }
        : miss(`the re-run \`${line}\` exited ${r.exitCode ?? 'without a code'}`);
    },
  };
}

/** The simple command again: literal words quoted, expansions and globs left to the shell. */
export function rerunLine(inv: Pick<Invocation, 'argv' | 'cwd'>): string | null {
  if (inv.cwd === null) return null;
  const words = inv.argv.map((w) => {
    if (w.dynamic) return `"${w.text.replace(/["\\]/g, '\\$&')}"`;
    // The pattern keeps quoted glob characters escaped; the shell's other specials are escaped here.
    if (hasGlob(w.pattern) || expandBraces(w.pattern).length > 1)
      return w.pattern.replace(/[\s$`"';&|<>()!#~]/g, '\\$&');
    return shellQuote(w.text);
  });
  return `cd ${shellQuote(inv.cwd)} && ${words.join(' ')}`;
}

/** At least one tool call was valid: the discipline flags qualify work, and doing nothing is none. */
export function didWork(ctx: Pick<CheckContext, 'calls'>): boolean {
  return ctx.calls.some((c) => c.invalid === null);
}
