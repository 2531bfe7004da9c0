/**
 * Deleting a run from the dashboard moves its results file into `<results>/.trash/` (never outside the
 * results folder, never removed for good): the user can move it back by hand. Only names the results
 * index knows reach this module, so a request can never name an arbitrary path.
 */
import { lstat, mkdir, rename } from 'node:fs/promises';
import { basename, join } from 'node:path';

const TRASH_DIR = '.trash';

export class TrashError extends Error {}

/** Moves `<resultsDir>/<name>` into the trash folder and returns its path there, relative to resultsDir. */
export async function moveToTrash(resultsDir: string, name: string): Promise<string> {
  if (name !== basename(name) || name.startsWith('.'))
    throw new TrashError(`not a results file name: ${name}`);
  const source = join(resultsDir, name);
  const info = await lstat(source).catch(() => null);
  // A link is not moved: the file it points to is not ours to move, and the link is not a result.
  if (info === null || !info.isFile()) throw new TrashError(`${name} is not a regular file`);
  const trash = join(resultsDir, TRASH_DIR);
  await mkdir(trash, { recursive: true });
  const trashInfo = await lstat(trash);
  // A `.trash` that is a link could lead anywhere; refuse rather than follow it.
  if (trashInfo.isSymbolicLink() || !trashInfo.isDirectory()) {
    throw new TrashError(`${TRASH_DIR} in the results folder is not a plain folder`);
  }
  const target = await freeName(trash, name);
  await rename(source, join(trash, target));
  return `${TRASH_DIR}/${target}`;
}

/** `name`, or `name` with a counter before .json when the trash already holds one of that name. */
async function freeName(trash: string, name: string): Promise<string> {
  const stem = name.replace(/\.json$/, '');
  for (let n = 0; ; n++) {
    const candidate = n === 0 ? name : `${stem}.${n}.json`;
    if ((await lstat(join(trash, candidate)).catch(() => null)) === null) return candidate;
  }
}
