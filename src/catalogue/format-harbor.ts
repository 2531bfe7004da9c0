/**
 * Harbor task folders: task.toml with a verifier (tests/test.sh) or an environment (environment/),
 * read as Harbor defines them (src/tasks/folder/harbor/). They become runnable tasks only once the
 * caller says on which image (`asTasks`), so loading them builds nothing.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type HarborRunOptions, harborAsTask } from '../tasks/folder/harbor/as-task.js';
import { HARBOR_ENVIRONMENT, HARBOR_TEST_SCRIPT, loadHarborFolder } from '../tasks/folder/harbor/load.js';
import type { Task } from '../tasks/types.js';
import type { FoundTasks, TaskFormat } from './format.js';

export const harborFormat: TaskFormat = {
  noun: 'a Harbor task (task.toml with tests/test.sh or environment/)',
  claims: (dir) =>
    existsSync(join(dir, 'task.toml')) &&
    (existsSync(join(dir, HARBOR_TEST_SCRIPT)) || existsSync(join(dir, HARBOR_ENVIRONMENT))),
  load: (dir) => ({ harbor: [loadHarborFolder(dir)] }),
};

/** The Harbor folders found, as tasks a model runs. */
export function harborTasks(found: Pick<FoundTasks, 'harbor'>, o: HarborRunOptions = {}): Task[] {
  return found.harbor.map((h) => harborAsTask(h, o));
}
