/**
 * Task selection, in one place: the built-in catalogue (`selectTasks`) and, for `run`, `validate` and
 * `ladder`, the catalogue with your own tasks: `--tasks`/`--task` plus `--tasks-dir DIR` (repeatable:
 * task folders, src/catalogue/native/), `--skill-dir DIR` (repeatable, one task per skill) and
 * `--skill-ab`. The rules:
 * - `skill_run_v1` in the task list stands for the --skill-dir skills (and needs one);
 * - with --tasks-dir or --skill-dir and the list left at `all`, only those tasks and skills run:
 *   pointing at your tasks means benching them (`--tasks all,skill_run_v1` runs everything and the
 *   skills; any list of ids picks from the built-in tasks and yours alike);
 * - any other list runs its tasks and then the skills;
 * - with --skill-ab every selected task must be a skill (yours or a bundled one), and each becomes
 *   the pair `<id>`, `<id>__noskill`.
 * - an id may be a glob (`helpdesk_*`, `tdd_*_v1`): every task it matches, in catalogue order;
 * - two tasks with one id (a folder of yours named like a built-in task) are a usage error naming both;
 * - `--split dev|holdout|all` (default all) keeps the selected tasks of that split (a task folder's
 *   `split = "holdout"`; every other task is dev), and selecting none of it is a usage error.
 * Every task folder and skill folder is loaded (and every problem reported) before anything starts.
 */
import { allTasks, builtIn } from '../catalogue/built-in.js';
import type { FoundTasks } from '../catalogue/format.js';
import { harborTasks } from '../catalogue/format-harbor.js';
import type { UnusableHarborTask } from '../catalogue/harbor/unusable.js';
import { loadTasks } from '../catalogue/load-tasks.js';
import { compileGlob } from '../scoring/glob.js';
import { type LoadedSkill, loadSkill } from '../skills/load.js';
import { skillTask } from '../skills/skill-task.js';
import type { Task } from '../tasks/types.js';
import { AgentBenchError, UsageError } from '../util/errors.js';
import { taskOrigin } from './task-origin.js';

const SKILL_PLACEHOLDER = 'skill_run_v1';

export interface SkillSelection {
  /** The --tasks / --task list. */
  tasks: string;
  skillDirs: readonly string[];
  skillAb: boolean;
  /** `--tasks-dir` folders. */
  tasksDirs?: readonly string[];
  /** `validate`'s: Harbor folders that cannot run here are collected here (a row each), not proven as tasks. */
  harbor?: UnusableHarborTask[];
  /** `--base-image`: Harbor tasks' Dockerfiles are built on this local image. */
  baseImage?: string;
  /** `--split`: default all. */
  split?: Split;
}

export type Split = 'dev' | 'holdout' | 'all';

/** Whether a task belongs to the split (`all`: every task). */
export function inSplit(t: Task, split: Split): boolean {
  return split === 'all' || (t.meta.split ?? 'dev') === split;
}

export function selectWithSkills(o: SkillSelection): Task[] {
  const skills = loadAll(o.skillDirs);
  const found = loadTasks(o.tasksDirs ?? [], '--tasks-dir');
  for (const line of found.warnings) process.stderr.write(`${line}\n`);
  const yours = [
    ...found.tasks,
    ...harborTasks(found, o.baseImage === undefined ? {} : { baseImage: o.baseImage }),
  ];
  const known = catalogue(yours);
  const ids = o.tasks
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const wantsSkills = ids.includes(SKILL_PLACEHOLDER);
  if (wantsSkills && skills.length === 0)
    throw new UsageError(`${SKILL_PLACEHOLDER} runs a skill of yours: give its folder with --skill-dir DIR`);
  const rest = ids.filter((id) => id !== SKILL_PLACEHOLDER);
  const onlyYours =
    (skills.length > 0 || yours.length > 0) &&
    (rest.length === 0 || (rest.length === 1 && rest[0] === 'all' && !wantsSkills));
  const chosen = [
    ...(onlyYours ? yours : rest.flatMap((id) => (id === 'all' ? known : pick(id, known)))),
    ...skills.map((s) => skillTask(s)),
  ];
  const split = o.split ?? 'all';
  const unique = dedupe(chosen).filter((t) => inSplit(t, split));
  if (unique.length === 0 && chosen.length > 0)
    throw new UsageError(
      `--split ${split}: none of the selected tasks is in it (task.toml: split = "holdout")`,
    );
  const selected = o.skillAb ? unique.flatMap((t) => abPair(t, skills)) : unique;
  return o.harbor === undefined ? selected : collectHarbor(selected, found, o.harbor);
}

/**
 * `validate` proves every selected task by the ordinary trial; a Harbor folder that cannot run here
 * (unusable) is a row of its own: it goes to `into`, and the rest is returned.
 */
function collectHarbor(selected: readonly Task[], found: FoundTasks, into: UnusableHarborTask[]): Task[] {
  const unusable = new Map(found.unusableHarbor.map((h) => [h.id, h]));
  const picked = selected.flatMap((t) => unusable.get(t.id) ?? []);
  into.push(...picked);
  return selected.filter((t) => !unusable.has(t.id));
}

/**
 * The task a results file names, as this agent-bench has it (built in, or in `tasksDirs`), or why
 * it is not known here (for a message).
 */
export function taskOfResult(taskId: string, tasksDirs: string[]): Task | { unknown: string } {
  try {
    const [task] = selectWithSkills({ tasks: taskId, skillDirs: [], skillAb: false, tasksDirs });
    return task ?? { unknown: 'no such task' };
  } catch (err) {
    if (err instanceof UsageError) return { unknown: err.message };
    throw err;
  }
}

/** Loads every folder, then reports the problems of all of them in one error. */
function loadAll(dirs: readonly string[]): LoadedSkill[] {
  const loaded: LoadedSkill[] = [];
  const errors: string[] = [];
  for (const dir of dirs) {
    try {
      loaded.push(loadSkill(dir));
    } catch (err) {
      if (!(err instanceof AgentBenchError)) throw err;
      errors.push(err.message);
    }
  }
  if (errors.length > 0) throw new UsageError(errors.join('\n'));
  return loaded;
}

const skillDigestOf = (t: Task): string | undefined => t.source?.skill;

function dedupe(tasks: readonly Task[]): Task[] {
  const byId = new Map<string, Task>();
  for (const t of tasks) {
    const seen = byId.get(t.id);
    if (seen !== undefined && skillDigestOf(seen) !== skillDigestOf(t))
      throw new UsageError(
        `two tasks have the id ${t.id}: give one skill another "id" in its bench_manifest.json`,
      );
    byId.set(t.id, seen ?? t);
  }
  return [...byId.values()];
}

function abPair(task: Task, skills: readonly LoadedSkill[]): Task[] {
  const skill = [...skills, ...builtIn().skills].find((s) => s.spec.id === task.id);
  if (skill === undefined)
    throw new UsageError(`--skill-ab compares a skill with and without it; ${task.id} is no skill task`);
  return [skillTask(skill), skillTask(skill, { withSkill: false })];
}

/** The built-in tasks and the --tasks-dir ones, light before heavy; one id names one task. */
export function catalogue(yours: readonly Task[]): Task[] {
  const all = [...allTasks(), ...yours];
  const byId = new Map<string, Task>();
  for (const t of all) {
    const seen = byId.get(t.id);
    if (seen !== undefined)
      throw new UsageError(
        `two tasks have the id ${t.id}: ${taskOrigin(seen)} and ${taskOrigin(t)}; give one another id`,
      );
    byId.set(t.id, t);
  }
  return [...all.filter((t) => t.meta.heavy !== true), ...all.filter((t) => t.meta.heavy === true)];
}

/** The task with this id, or every task a glob matches (`helpdesk_*`), in catalogue order. */
function pick(id: string, known: readonly Task[]): Task[] {
  const glob = /[*?[]/.test(id) ? compileGlob(id) : null;
  const tasks = known.filter((t) => (glob === null ? t.id === id : glob.test(t.id)));
  if (tasks.length === 0)
    throw new UsageError(
      `${glob === null ? 'unknown task' : 'no task matches'} "${id}"; known tasks: ${known.map((t) => t.id).join(', ')}`,
    );
  return tasks;
}

/** "all" or a comma-separated list of ids; an unknown id is a usage error naming the known ones. */
export function selectTasks(spec: string): Task[] {
  const ids = spec
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (ids.length === 0 || (ids.length === 1 && ids[0] === 'all')) return allTasks();
  return ids.flatMap((id) => pick(id, allTasks()));
}
