/**
 * A skill task's flags, in the published order: reads, commands, artifacts, content checks, then
 * the two always measured. Extensions add commands_in_order, recheck:* and exit:* flags. Harness
 * re-runs come after every content check, so what they write cannot change what those checks read.
 * The no-skill variant (`--skill-ab`) keeps only what does not need the skill folder.
 */
import { readsCovering } from '../scoring/check-helpers.js';
import { workspaceAbsolute } from '../scoring/paths.js';
import type { Flag, FlagOutcome } from '../tasks/types.js';
import { contentProblem, describeCheck } from './artifact-checks.js';
import type { CheckSpec } from './check-specs.js';
import { commandFlag, describeGroup, didWork, orderFlag, recheckFlag } from './command-flags.js';
import { groupRuns, type Matcher } from './command-match.js';
import { SKILL_MOUNT } from './mount-point.js';
import type { HarnessCheckSpec, SkillSpec } from './spec.js';
import { stubLog } from './stub-log.js';

const miss = (detail: string): FlagOutcome => ({ reached: false, detail });

export function skillFlags(spec: SkillSpec, withSkill: boolean): Flag[] {
  const m: Matcher = { stubs: new Map(spec.stubs.map((s) => [`${SKILL_MOUNT}/${s.script}`, s.script])) };
  const onSkill = (path: string): boolean => path === 'skill' || path.startsWith('skill/');
  const groups = withSkill ? spec.commands : [];
  return [
    ...spec.reads.filter((p) => withSkill || !onSkill(p)).map(readFlag),
    ...groups.map((g) => commandFlag(g, m)),
    ...(spec.orderedCommands && groups.length > 1 ? [orderFlag(groups, m)] : []),
    ...spec.artifacts.map(artifactFlag),
    ...spec.checks.map(checkFlag),
    ...groups.filter((g) => g.recheck).map((g) => recheckFlag(g, m)),
    ...spec.harnessChecks.filter((h) => withSkill || !h.command.includes('skill/')).map(harnessFlag),
    noToolHallucination(),
    stepCompletion(spec, groups, m),
  ];
}

function readFlag(path: string): Flag {
  return {
    id: `read:${path}`,
    kind: 'process',
    description: `Read ${path} (read_file, or a command that reads that file by name).`,
    check(ctx) {
      const read = readsCovering(ctx, workspaceAbsolute(path), { searches: false })[0];
      return read === undefined ? miss(`${path} was never read`) : { reached: true, turn: read.turn };
    },
  };
}

function artifactFlag(path: string): Flag {
  return {
    id: `artifact:${path}`,
    kind: 'outcome',
    description: `${path} exists at the end, as a regular file.`,
    check(ctx) {
      if (ctx.finalSnapshot.get(path)?.kind !== 'file')
        return miss(`${path} is not a regular file at the end`);
      return { reached: true, turn: ctx.changeTurns.get(path)?.at(-1) ?? null };
    },
  };
}

function checkFlag(c: CheckSpec): Flag {
  return {
    id: c.id,
    kind: 'outcome',
    description: `${describeCheck(c.file, c.check)} (checked on the file after the last turn).`,
    async check(ctx) {
      const problem = await contentProblem(ctx, c.file, c.check);
      return problem === null ? { reached: true, turn: null } : miss(problem);
    },
  };
}

function harnessFlag(h: HarnessCheckSpec): Flag {
  return {
    id: `exit:${h.id}`,
    kind: 'outcome',
    description: `${h.description ?? `\`${h.command}\``}: run by the harness after the last turn (as root, in /workspace), exits ${h.exitCode}; only after some work.`,
    async check(ctx) {
      if (!didWork(ctx)) return miss('no valid tool call was made');
      await stubLog(ctx); // read before any re-run appends to it
      const r = await ctx.groundTruth.run(h.command);
      return r.exitCode === h.exitCode && !r.timedOut
        ? { reached: true, turn: null }
        : miss(`\`${h.command}\` exited ${r.exitCode ?? 'without a code'}`);
    },
  };
}

function noToolHallucination(): Flag {
  return {
    id: 'no_tool_hallucination',
    kind: 'process',
    description:
      'Called only the tools that exist (a step name from the docs is no tool), with at least one valid call.',
    check(ctx) {
      const unknown = ctx.calls.find((c) => c.invalid === 'unknown_tool');
      if (unknown !== undefined)
        return miss(`called "${unknown.name}", which is no tool (turn ${unknown.turn})`);
      return didWork(ctx) ? { reached: true, turn: null } : miss('no valid tool call was made');
    },
  };
}

function stepCompletion(spec: SkillSpec, groups: SkillSpec['commands'], m: Matcher): Flag {
  const parts = [...groups.map((g) => `cmd:${g.id}`), ...spec.artifacts.map((a) => `artifact:${a}`)];
  return {
    id: 'step_completion',
    kind: 'process',
    description: `Every step was done: ${parts.length === 0 ? 'at least one valid tool call' : parts.join(', ')}.`,
    async check(ctx) {
      if (!didWork(ctx)) return miss('no valid tool call was made');
      const turns: number[] = [];
      for (const g of groups) {
        const first = (await groupRuns(ctx, g, m)).runs[0];
        if (first === undefined) return miss(`not done: ${describeGroup(g)}`);
        turns.push(first.inv.turn);
      }
      for (const a of spec.artifacts) {
        if (ctx.finalSnapshot.get(a)?.kind !== 'file') return miss(`not done: ${a} is missing`);
        const turn = ctx.firstChangeTurn.get(a);
        if (turn !== undefined) turns.push(turn);
      }
      return { reached: true, turn: turns.length === 0 ? null : Math.max(...turns) };
    },
  };
}
