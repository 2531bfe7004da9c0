/**
 * What is wrong with a task folder, each problem on one line that names the file and, for the
 * manifest, the field: `tasks/x/task.toml: flags[2].read.file: file not found in task folder`.
 * Every problem of a folder is collected and reported at once, before any container starts.
 */
import { UsageError } from '../util/errors.js';

export interface TaskProblem {
  /** The folder's file the problem is in, relative to the folder; '' for the folder itself. */
  file: string;
  /** Where in that file (a manifest field such as `flags[0].read`); '' for the file as a whole. */
  at: string;
  message: string;
}

function problemLine(dir: string, p: TaskProblem): string {
  const where = p.file === '' ? dir : `${dir.replace(/\/+$/, '')}/${p.file}`;
  return p.at === '' ? `${where}: ${p.message}` : `${where}: ${p.at}: ${p.message}`;
}

/** A usage error (exit 2): one line per problem. */
export function taskFolderError(dir: string, problems: readonly TaskProblem[]): UsageError {
  return new UsageError(problems.map((p) => problemLine(dir, p)).join('\n'));
}
