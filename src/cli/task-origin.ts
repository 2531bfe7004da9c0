/** Where a task comes from, as `list` and the duplicate-id error say it. */
import { isAbsolute, relative } from 'node:path';
import type { Task } from '../tasks/types.js';

/** A path as short as it can be said: relative to the working folder when inside it. */
function shown(dir: string, cwd: string): string {
  const rel = relative(cwd, dir);
  if (rel === '') return '.';
  return rel.startsWith('..') || isAbsolute(rel) ? dir : rel;
}

/** The task's folder, its skill's folder, its Harbor folder or its dialogue pack, as its loader says. */
export function taskOrigin(task: Task, cwd: string = process.cwd()): string {
  const from = task.source?.from;
  if (from === undefined) return 'built in code (no folder)';
  return from.noun === '' ? shown(from.dir, cwd) : `${from.noun} ${shown(from.dir, cwd)}`;
}
