/**
 * A skill task's flags, in the published order: reads, commands, artifacts, content checks, then
 * the two always measured. Extensions add commands_in_order, recheck:* and exit:* flags. Harness
 * re-runs come after every content check, so what they write cannot change what those checks read.
 * The no-skill variant (`--skill-ab`) keeps only what does not need the skill folder.
 */

import { contentProblem, describeCheck } from '../manifest/artifact-checks.js';
import { provenanceProblem } from '../manifest/artifact-provenance.js';
import type { CheckSpec } from '../manifest/check-specs.js';
import { commandFlag, describeGroup, didWork, orderFlag, recheckFlag } from '../manifest/command-flags.js';
import { type CommandGroup, groupRuns } from '../manifest/command-match.js';
import { isAbsence } from '../manifest/meaning/meaning-checks.js';
import { mcpCalls } from '../scoring/mcp-calls.js';
import { beforeChange, type StepRef } from '../scoring/ordering.js';
import { workspaceAbsolute } from '../scoring/paths.js';
import { absence } from '../scoring/score.js';
import { firstRead } from '../scoring/seen.js';
import type { Flag, FlagOutcome } from '../tasks/types.js';
import type { HarnessCheckSpec, SkillSpec } from './spec.js';

const miss = (detail: string): FlagOutcome => ({ reached: false, detail });

/** The most of a score that reading alone (no command run, nothing written) may earn. */
const READ_ONLY_SHARE = 0.25;

export function skillFlags(spec: SkillSpec, withSkill: boolean): Flag[] {
  const onSkill = (path: string): boolean => path === 'skill' || path.startsWith('skill/');
  const groups = withSkill ? spec.commands : [];
  // With no step required, step_completion asks only for a valid call: a read is one.
  const stepless = groups.length === 0 && spec.artifacts.length === 0;
  const readOnly = (f: Flag): boolean => f.id.startsWith('read:') || (stepless && f.id === 'step_completion');
  return capReading(readOnly, [
    ...spec.reads.filter((p) => withSkill || !onSkill(p)).map((p) => readFlag(p, spec.artifacts)),
    ...groups.map(commandFlag),
    ...(spec.orderedCommands && groups.length > 1 ? [orderFlag(groups)] : []),
    ...spec.artifacts.map((a) =>
      artifactFlag(
        a,
        groups.filter((g) => g.writes?.includes(a)),
        groups,
      ),
    ),
    ...spec.mcpCalls.map(mcpCallFlag),
    ...spec.checks.map(checkFlag),
    ...groups.filter((g) => g.recheck).map(recheckFlag),
    ...spec.harnessChecks.filter((h) => withSkill || !h.command.includes('skill/')).map(harnessFlag),
    noToolHallucination(),
    stepCompletion(spec, groups),
  ]);
}

/**
 * Reading alone never earns more than READ_ONLY_SHARE of the score: when the flags a read-only agent
 * reaches (the reads, and step_completion when no step is required) would weigh more, each of them
 * weighs less. A manifest with few reads keeps every weight at 1, so its task version is unchanged.
 */
function capReading(readOnly: (f: Flag) => boolean, flags: Flag[]): Flag[] {
  const reading = flags.filter(readOnly).length;
  const rest = flags.filter((f) => !readOnly(f)).reduce((a, f) => a + (f.weight ?? 1), 0);
  // reading·w <= share·(reading·w + rest)  <=>  w <= share·rest / ((1 - share)·reading)
  const w = (READ_ONLY_SHARE * rest) / ((1 - READ_ONLY_SHARE) * reading);
  if (reading === 0 || w >= 1) return flags;
  const weight = Math.floor(w * 1000) / 1000;
  return flags.map((f) => (readOnly(f) ? { ...f, weight } : f));
}

/**
 * A required read counts when it informed the work: shown in a turn before the one that decided
 * the first change of any expected artifact (ordering.ts), so a read sent in the same reply as the
 * page it should have shaped, or after it, is no reading of the skill.
 */
function readFlag(path: string, artifacts: readonly string[]): Flag {
  return {
    id: `read:${path}`,
    kind: 'process',
    description:
      artifacts.length === 0
        ? `Saw at least half of ${path} (read_file, or any command whose output showed it).`
        : `Saw at least half of ${path} (read_file, or any command whose output showed it) in a turn before the one that decided the first change of ${artifacts.join(', ')}.`,
    check(ctx) {
      const counted = (at: StepRef) =>
        artifacts.every((a) => {
          const change = ctx.firstChangeTurn.get(a);
          return change === undefined || beforeChange(ctx, at, a, change);
        });
      const read = firstRead(ctx, workspaceAbsolute(path), {}, counted);
      return read === undefined
        ? miss(`${path} was never read${artifacts.length === 0 ? '' : ' before the work it should inform'}`)
        : { reached: true, turn: read.turn };
    },
  };
}

/**
 * The artifact is there at the end; when the manifest names the commands that write it (`writes`),
 * its final content was written by a run of one of them (artifact-provenance.ts), not made by hand
 * beside one.
 */
function artifactFlag(path: string, writers: readonly CommandGroup[], all: readonly CommandGroup[]): Flag {
  const by = writers.map((g) => `cmd:${g.id}`).join(' or ');
  return {
    id: `artifact:${path}`,
    kind: 'outcome',
    description:
      writers.length > 0
        ? `${path} exists at the end, as a regular file, and its final content was written by a process descended from a counted run of ${by} (process trace), with no process left running that could have changed it.`
        : `${path} exists at the end, as a regular file.`,
    check(ctx) {
      if (ctx.finalSnapshot.get(path)?.kind !== 'file')
        return miss(`${path} is not a regular file at the end`);
      const problem = writers.length > 0 ? provenanceProblem(ctx, path, writers, all) : null;
      if (problem !== null) return miss(problem);
      return { reached: true, turn: ctx.changeTurns.get(path)?.at(-1) ?? null };
    },
  };
}

/** The model called this tool of an MCP server (with these arguments) and it answered without error. */
function mcpCallFlag(c: SkillSpec['mcpCalls'][number]): Flag {
  const args = c.argsMatch === undefined ? '' : ` with ${JSON.stringify(c.argsMatch)}`;
  return {
    id: `mcp:${c.id}`,
    kind: 'process',
    description: `Called ${c.tool} of the MCP server ${c.server}${args}, and it answered without error.`,
    check(ctx) {
      const [first] = mcpCalls(ctx, c);
      return first === undefined
        ? miss(`no successful call of ${c.server}'s ${c.tool}${args}`)
        : { reached: true, turn: ctx.calls[first]?.turn ?? null };
    },
  };
}

function checkFlag(c: CheckSpec): Flag {
  const flag: Flag = {
    id: c.id,
    kind: 'outcome',
    description: `${describeCheck(c.file, c.check)} (checked on the file after the last turn).`,
    async check(ctx) {
      const problem = await contentProblem(ctx, c.file, c.check);
      return problem === null ? { reached: true, turn: null } : miss(problem);
    },
  };
  // "Does not contain X" (no placeholder, nothing external, no copy) holds for any file at all: an
  // absence, credited only with an outcome.
  return c.check.kind === 'not_contains' || isAbsence(c.check) ? absence(flag) : flag;
}

function harnessFlag(h: HarnessCheckSpec): Flag {
  return {
    id: `exit:${h.id}`,
    kind: 'outcome',
    description: `${h.description ?? `\`${h.command}\``}: run by the harness after the last turn (as root, in /workspace), exits ${h.exitCode}; only after some work.`,
    async check(ctx) {
      if (!didWork(ctx)) return miss('no valid tool call was made');
      const r = await ctx.groundTruth.run(h.command);
      return r.exitCode === h.exitCode && !r.timedOut
        ? { reached: true, turn: null }
        : miss(`\`${h.command}\` exited ${r.exitCode ?? 'without a code'}`);
    },
  };
}

function noToolHallucination(): Flag {
  return absence({
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
  });
}

function stepCompletion(spec: SkillSpec, groups: SkillSpec['commands']): Flag {
  const parts = [...groups.map((g) => `cmd:${g.id}`), ...spec.artifacts.map((a) => `artifact:${a}`)];
  return {
    id: 'step_completion',
    kind: 'process',
    description: `Every step was done: ${parts.length === 0 ? 'at least one valid tool call' : parts.join(', ')}.`,
    check(ctx) {
      if (!didWork(ctx)) return miss('no valid tool call was made');
      const turns: number[] = [];
      for (const g of groups) {
        const first = groupRuns(ctx, g).runs[0];
        if (first === undefined) return miss(`not done: ${describeGroup(g)}`);
        turns.push(first.turn);
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
