/**
 * Task selection, in one place: the built-in catalogue (`selectTasks`) and, for `run`, `validate` and
 * `ladder`, the catalogue with skills: `--tasks`/`--task` plus `--skill-dir DIR` (repeatable, one task per
 * skill) and `--skill-ab`. The rules:
 * - `skill_run_v1` in the task list stands for the --skill-dir skills (and needs one);
 * - with --skill-dir and the list left at `all`, only the skills run: pointing at a skill means
 *   benching it (`--tasks all,skill_run_v1` runs everything and the skills);
 * - any other list runs its tasks and then the skills;
 * - with --skill-ab every selected task must be a skill (yours or a bundled one), and each becomes
 *   the pair `<id>`, `<id>__noskill`.
 * Every skill folder is loaded (and every manifest problem reported) before anything starts.
 */
import { allTasks, getTask } from '../../tasks/index.js';
import { bundledSkills } from '../skills/bundled.js';
import { type LoadedSkill, loadSkill } from '../skills/load.js';
import { skillTask } from '../skills/skill-task.js';
import type { Task } from '../tasks/types.js';
import { AgentBenchError, UsageError } from '../util/errors.js';

const SKILL_PLACEHOLDER = 'skill_run_v1';

export interface SkillSelection {
  /** The --tasks / --task list. */
  tasks: string;
  skillDirs: readonly string[];
  skillAb: boolean;
}

export function selectWithSkills(o: SkillSelection): Task[] {
  const skills = loadAll(o.skillDirs);
  const ids = o.tasks
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const wantsSkills = ids.includes(SKILL_PLACEHOLDER);
  if (wantsSkills && skills.length === 0)
    throw new UsageError(`${SKILL_PLACEHOLDER} runs a skill of yours: give its folder with --skill-dir DIR`);
  const rest = ids.filter((id) => id !== SKILL_PLACEHOLDER);
  const onlySkills =
    skills.length > 0 && (rest.length === 0 || (rest.length === 1 && rest[0] === 'all' && !wantsSkills));
  const chosen = [
    ...(onlySkills ? [] : rest.flatMap((id) => (id === 'all' ? allTasks() : selectTasks(id)))),
    ...skills.map((s) => skillTask(s)),
  ];
  const unique = dedupe(chosen);
  return o.skillAb ? unique.flatMap((t) => abPair(t, skills)) : unique;
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

function dedupe(tasks: readonly Task[]): Task[] {
  const byId = new Map<string, Task>();
  for (const t of tasks) {
    const seen = byId.get(t.id);
    if (seen !== undefined && seen.skillDigest !== t.skillDigest)
      throw new UsageError(
        `two tasks have the id ${t.id}: give one skill another "id" in its bench_manifest.json`,
      );
    byId.set(t.id, seen ?? t);
  }
  return [...byId.values()];
}

function abPair(task: Task, skills: readonly LoadedSkill[]): Task[] {
  const skill = [...skills, ...bundledSkills()].find((s) => s.spec.id === task.id);
  if (skill === undefined)
    throw new UsageError(`--skill-ab compares a skill with and without it; ${task.id} is no skill task`);
  return [skillTask(skill), skillTask(skill, { withSkill: false })];
}

/** "all" or a comma-separated list of ids; an unknown id is a usage error naming the known ones. */
export function selectTasks(spec: string): Task[] {
  const ids = spec
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (ids.length === 0 || (ids.length === 1 && ids[0] === 'all')) return allTasks();
  return ids.map((id) => {
    const task = getTask(id);
    if (task === undefined) {
      throw new UsageError(
        `unknown task "${id}"; known tasks: ${allTasks()
          .map((t) => t.id)
          .join(', ')}`,
      );
    }
    return task;
  });
}
