/**
 * Harbor task folders: task.toml with a verifier (tests/test.sh) or an environment (environment/),
 * read as Harbor defines them (src/catalogue/harbor/). They become runnable tasks only once the
 * caller says on which image (`asTasks`), so loading them builds nothing. A Harbor folder that
 * cannot run here is kept as unusable, not thrown: published Harbor folders hold many tasks, and one
 * bad one must not stop the rest.
 */
import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { Task } from '../tasks/types.js';
import { UsageError } from '../util/errors.js';
import type { FoundTasks, TaskFormat } from './format.js';
import { type HarborRunOptions, harborAsTask } from './harbor/as-task.js';
import { HARBOR_ENVIRONMENT, HARBOR_TEST_SCRIPT, type HarborTask, loadHarborFolder } from './harbor/load.js';
import { unusableHarborAsTask } from './harbor/unusable.js';

export const harborFormat: TaskFormat = {
  noun: 'a Harbor task (task.toml with tests/test.sh or environment/)',
  claims: (dir) =>
    existsSync(join(dir, 'task.toml')) &&
    (existsSync(join(dir, HARBOR_TEST_SCRIPT)) || existsSync(join(dir, HARBOR_ENVIRONMENT))),
  load: (dir) => {
    try {
      const h = loadHarborFolder(dir);
      const warning = ignoredWarning(h);
      const composeNotes = h.composeNotes.map((n) => `warning: ${join(h.dir, n)}`);
      return { harbor: [h], warnings: [...(warning === null ? [] : [warning]), ...composeNotes] };
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      return { unusableHarbor: [{ id: basename(resolve(dir)), dir: resolve(dir), problem: err.message }] };
    }
  },
};

/** The Harbor folders found, as tasks a model runs (an unusable one as a task whose every trial is an error). */
export function harborTasks(
  found: Pick<FoundTasks, 'harbor' | 'unusableHarbor'>,
  o: HarborRunOptions = {},
): Task[] {
  return [...found.harbor.map((h) => harborAsTask(h, o)), ...found.unusableHarbor.map(unusableHarborAsTask)];
}

/** The one line that names what the task asks for and agent-bench does not do, or null. */
function ignoredWarning(h: HarborTask): string | null {
  const parts = [...h.ignoredKeys];
  // Harbor gives them to the whole environment; the model's commands here run in agent-bench's sandbox.
  if (Object.keys(h.environment.env).length > 0)
    parts.push('environment.env for the model’s commands (tests/test.sh and solve.sh get it)');
  if (parts.length === 0) return null;
  return `warning: ${join(h.dir, 'task.toml')}: agent-bench ignores ${parts.join(', ')}`;
}
