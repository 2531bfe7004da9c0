/** The flags about the commands a skill requires: one per command group, their order, re-checks. */
import type { ProgramRun } from '../scoring/program-runs.js';
import type { CheckContext, Flag, FlagOutcome } from '../tasks/types.js';
import { type CommandGroup, groupRuns, inOrder } from './command-match.js';
import { shellQuote } from './shell-quote.js';

const miss = (detail: string): FlagOutcome => ({ reached: false, detail });

export function describeGroup(g: CommandGroup): string {
  const res = g.patterns.map((re) => `/${re.source}/${re.flags}`).join(' or ');
  const exit = g.exitCode === null ? '' : ` with exit code ${g.exitCode}`;
  return g.description ?? `Ran a command that ${res} names as the program it runs${exit}`;
}

export function commandFlag(g: CommandGroup): Flag {
  return {
    id: `cmd:${g.id}`,
    kind: 'process',
    description: `${describeGroup(g)} (from the process trace: the skill's own script by its resolved path, or a program of the image, with the arguments it received and its own exit code; a syntax check or a copy elsewhere is no run).`,
    check(ctx) {
      const { runs, near } = groupRuns(ctx, g);
      const first = runs[0];
      return first === undefined ? miss(near ?? 'no such command ran') : { reached: true, turn: first.turn };
    },
  };
}

export function orderFlag(groups: readonly CommandGroup[]): Flag {
  return {
    id: 'commands_in_order',
    kind: 'process',
    description: `The required commands ran in the listed order (${groups.map((g) => `cmd:${g.id}`).join(', ')}).`,
    check(ctx) {
      const perGroup = groups.map((g) => groupRuns(ctx, g).runs);
      if (perGroup.some((runs) => runs.length === 0)) return miss('not every required command ran');
      if (!inOrder(perGroup)) return miss('the required commands did not run in order');
      return { reached: true, turn: Math.max(...perGroup.map((runs) => (runs[0] as ProgramRun).turn)) };
    },
  };
}

/**
 * After the last turn the harness re-runs the agent's last run of the command (the program and the
 * arguments it received, in the directory it ran in, every agent process dead) and expects the same
 * exit code: the step still holds on the final workspace, not only when the agent ran it.
 */
export function recheckFlag(g: CommandGroup): Flag {
  return {
    id: `recheck:${g.id}`,
    kind: 'outcome',
    description: `The harness re-runs the agent's last run of cmd:${g.id} after the last turn and it exits ${g.exitCode}.`,
    async check(ctx) {
      const last = groupRuns(ctx, g).runs.at(-1);
      if (last === undefined) return miss(`cmd:${g.id} never ran`);
      const line = rerunLine(last);
      if (line === null) return miss('the run happened in a directory the trace cannot tell');
      const r = await ctx.groundTruth.run(line);
      return r.exitCode === g.exitCode && !r.timedOut
        ? { reached: true, turn: null }
        : miss(`the re-run \`${line}\` exited ${r.exitCode ?? 'without a code'}`);
    },
  };
}

/**
 * The process again: the file it executed and the arguments it received, quoted, in its directory.
 * The directory ends in `/` so that the harness's move of /workspace to its staged copy applies.
 */
export function rerunLine(run: Pick<ProgramRun, 'argv' | 'process'>): string | null {
  const { cwd, exe } = run.process;
  if (cwd === null) return null;
  const [first = '', ...rest] = run.argv;
  const words = [exe ?? first, ...rest].map(shellQuote);
  return `cd ${shellQuote(cwd.endsWith('/') ? cwd : `${cwd}/`)} && ${words.join(' ')}`;
}

/** At least one tool call was valid: the discipline flags qualify work, and doing nothing is none. */
export function didWork(ctx: Pick<CheckContext, 'calls'>): boolean {
  return ctx.calls.some((c) => c.invalid === null);
}
