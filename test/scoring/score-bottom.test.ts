/**
 * Scores mean something at the bottom: on every task a read-only agent (it lists, searches and reads
 * every file, runs the tests, and changes nothing) scores at most 0.25, and the flags that state an
 * absence are marked as such, so doing nothing earns nothing for the harm it did not do.
 */
import { describe, expect, it } from 'vitest';
import { allTasks, builtIn, getTask } from '../../src/catalogue/built-in.js';
import type { FlagResult, ToolCallLog } from '../../src/results/trial.js';
import { ABSENCE_NOTE, creditAbsences, NO_OUTCOME_DETAIL, scoreTrial } from '../../src/scoring/score.js';
import { skillFlags } from '../../src/skills/flags.js';
import type { SkillSpec } from '../../src/skills/spec.js';
import { type FlagOutcome, inContainer, type Task } from '../../src/tasks/types.js';
import { craftTrial, evaluate } from '../tasks/crafted-trial.js';
import { readFile, shell } from './call-fixtures.js';

const READ_ONLY_MAX = 0.25;

/** Every file the agent can see, with its content: the task's files, and a skill task's mounted folder. */
function visibleFiles(task: Task): [string, string][] {
  const own = (inContainer(task) ? task.files : []).map((f): [string, string] => [f.path, f.content]);
  const skill = builtIn().skills.find((s) => s.spec.id === task.id);
  if (skill === undefined) return own;
  const mounted = [...skill.folder.files.keys()].filter((p) => !p.startsWith('.bench/'));
  return [
    ...own,
    ...mounted.map((p): [string, string] => [`skill/${p}`, skill.folder.read(p).toString('utf8')]),
  ];
}

const withOutput = (call: ToolCallLog, stdout: string): ToolCallLog => ({ ...call, stdout });

/** Everything an agent can do without changing anything, each step shown in full. */
function readOnlyTurns(task: Task): ToolCallLog[][] {
  const files = visibleFiles(task);
  const grep = files.flatMap(([path, text]) =>
    text.split('\n').map((line, i) => `./${path}:${i + 1}:${line}`),
  );
  const runs = ['python3 -m pytest -q', 'node --test', 'tsc', 'tsc --noEmit -p tsconfig.json'];
  return [
    [
      withOutput(shell('ls -R'), files.map(([p]) => p).join('\n')),
      withOutput(shell('find . -type f'), files.map(([p]) => `./${p}`).join('\n')),
      withOutput(shell('grep -rn "" .'), grep.join('\n')),
    ],
    files.map(([path, text]) => withOutput(readFile(path), text)),
    files.map(([path, text]) => withOutput(shell(`cat ${path}`), text)),
    // Red runs, then green ones: a read-only agent may see either, and gets the benefit of both.
    runs.map((command) => withOutput(shell(command, { exit: command.startsWith('tsc') ? 2 : 1 }), 'failed')),
    runs.map((command) => withOutput(shell(command), 'passed')),
  ];
}

/** Check outcomes as the trial record holds them. */
function asResults(task: Task, raw: Record<string, FlagOutcome>): Record<string, FlagResult> {
  return Object.fromEntries(
    task.flags.map((f) => [f.id, { reached: raw[f.id]?.reached === true, turn: null, kind: f.kind }]),
  );
}

/** The harness's own runs fail on the untouched workspace: the task is not done. */
const untouched = () => false;

describe('the bottom of the scale', () => {
  it.each(allTasks().map((t) => [t.id, t] as const))(
    '%s: a read-only agent scores at most 0.25',
    async (_id, task) => {
      const trial = craftTrial(task, readOnlyTurns(task), untouched);
      const raw = await evaluate(task, trial.ctx);
      const { score } = scoreTrial(task.flags, raw, false);
      expect(score, JSON.stringify(raw)).toBeLessThanOrEqual(READ_ONLY_MAX);
      // Nothing changed, so no outcome: no absence it held is credited.
      const credited = creditAbsences(task.flags, asResults(task, raw));
      for (const flag of task.flags.filter((f) => f.absence === true))
        expect(credited[flag.id], flag.id).toMatchObject({ reached: false, absence: true });
    },
  );

  it('the read-only agent is a real one: it reaches what reading reaches', async () => {
    const task = getTask('context_manage_v1') as Task;
    const raw = await evaluate(task, craftTrial(task, readOnlyTurns(task), untouched).ctx);
    // It surveyed every module and looped on none: before absences were gated, 2 of 3 flags.
    expect(raw.files_surveyed?.reached).toBe(true);
    expect(raw.no_read_loops?.reached).toBe(true);
    const judged = creditAbsences(task.flags, asResults(task, raw));
    expect(judged.no_read_loops).toMatchObject({ reached: false, absence: true, detail: NO_OUTCOME_DETAIL });
    // files_surveyed alone of five flags (no_read_loops and no_collateral are absences, not credited).
    expect(scoreTrial(task.flags, raw, false).score).toBe(0.2);
  });

  it.each(allTasks().map((t) => [t.id, t] as const))(
    '%s: has an outcome that is not an absence, and every absence says so',
    (_id, task) => {
      expect(task.flags.some((f) => f.kind === 'outcome' && f.absence !== true)).toBe(true);
      for (const f of task.flags.filter((x) => x.absence === true))
        expect(f.description.endsWith(ABSENCE_NOTE), f.id).toBe(true);
      for (const f of task.flags.filter((x) => x.absence !== true))
        expect(f.description.endsWith(ABSENCE_NOTE), f.id).toBe(false);
    },
  );

  it('marks the flags that state an absence', () => {
    const marked = allTasks().flatMap((t) =>
      t.flags.filter((f) => f.absence === true).map((f) => `${t.id}:${f.id}`),
    );
    expect(marked).toEqual(
      expect.arrayContaining([
        'context_manage_v1:no_read_loops',
        'big_file_edit_v1:args_intact',
        'big_file_edit_v1:anchors_preserved',
        'wrong_fix_trap_v1:decoy_intact',
        'tdd_strict_v1:no_test_stub',
        'tdd_strict_js_v1:tests_genuine',
        'refactor_extract_js_v1:behaviour_kept',
        'tool_mirage_v1:no_tool_hallucination',
        'skill_run_v1_landing_page:check:not:https://',
        'skill_run_v1_imitate_dashboard:check:not:ORBITAL CUP',
      ]),
    );
  });
});

describe('skill tasks', () => {
  const spec = (reads: string[], artifacts: string[]): SkillSpec => ({
    id: 'synthetic_v1',
    goal: 'g',
    goalWithoutSkill: 'g',
    promptFile: null,
    reads,
    commands: [],
    orderedCommands: false,
    artifacts,
    checks: [],
    harnessChecks: [],
    allowedWrites: ['out/*'],
    ignored: [],
    watchToolCaches: false,
    maxTurns: 5,
    stubs: [],
    mcpServers: [],
    mcpCalls: [],
    referenceSolution: null,
    lures: [],
    alternates: [],
    cheats: [],
    metamorphicSkips: {},
    meta: { domain: 'skill', difficulty: 'easy', description: 'd', optimalSteps: 1 },
  });
  const readingShare = (flags: ReturnType<typeof skillFlags>, stepless: boolean): number => {
    const w = (f: (typeof flags)[number]) => f.weight ?? 1;
    const reading = flags.filter((f) => f.id.startsWith('read:') || (stepless && f.id === 'step_completion'));
    return reading.reduce((a, f) => a + w(f), 0) / flags.reduce((a, f) => a + w(f), 0);
  };

  it('reads weigh less when there are many, so reading alone stays at a quarter of the score', () => {
    const many = skillFlags(spec(['skill/SKILL.md', 'skill/a.md', 'skill/b.md'], ['out/x.txt']), true);
    expect(readingShare(many, false)).toBeLessThanOrEqual(READ_ONLY_MAX);
    expect(many.find((f) => f.id === 'read:skill/a.md')?.weight).toBeLessThan(1);
    // No step at all: step_completion asks only for a valid call, which a read is.
    const stepless = skillFlags(spec(['skill/SKILL.md'], []), true);
    expect(readingShare(stepless, true)).toBeLessThanOrEqual(READ_ONLY_MAX);
  });

  it('a manifest with few reads keeps every weight at 1', () => {
    const few = skillFlags(spec(['skill/SKILL.md'], ['out/x.txt', 'out/y.txt']), true);
    expect(few.every((f) => f.weight === undefined)).toBe(true);
    for (const skill of builtIn().skills)
      expect(
        skillFlags(skill.spec, true).every((f) => f.weight === undefined),
        skill.spec.id,
      ).toBe(true);
  });
});
