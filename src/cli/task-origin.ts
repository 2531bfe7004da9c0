/** Where a task comes from, as `list` and the duplicate-id error say it. */
import { isAbsolute, relative } from 'node:path';
import type { LoadedSkill } from '../skills/load.js';
import type { Task } from '../tasks/types.js';

/** A path as short as it can be said: relative to the working folder when inside it. */
function shown(dir: string, cwd: string): string {
  const rel = relative(cwd, dir);
  if (rel === '') return '.';
  return rel.startsWith('..') || isAbsolute(rel) ? dir : rel;
}

/** The task's folder, its skill's folder, or its dialogue pack. */
export function taskOrigin(task: Task, skills: readonly LoadedSkill[], cwd: string = process.cwd()): string {
  if (task.kind === 'sandbox' && task.folder !== undefined) return shown(task.folder.dir, cwd);
  const skill = task.kind === 'skill' ? skills.find((s) => s.digest === task.source?.skill) : undefined;
  if (skill !== undefined) return `skill ${shown(skill.dir, cwd)}`;
  if (task.kind === 'dialogue') return `dialogue pack ${shown(task.dialogue.pack, cwd)}`;
  if (task.kind === 'harbor') return 'a Harbor task folder';
  return 'built in code (no folder)';
}
