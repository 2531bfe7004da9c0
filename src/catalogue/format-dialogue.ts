/** Dialogue packs: a policy (policy.md), base data and scenarios/ (src/dialogue/), one task per scenario. */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadPack } from '../dialogue/pack.js';
import { dialogueTasks } from '../dialogue/task.js';
import type { TaskFormat } from './format.js';

export const dialogueFormat: TaskFormat = {
  noun: 'a dialogue pack (policy.md and scenarios/)',
  claims: (dir) => {
    const scenarios = join(dir, 'scenarios');
    return existsSync(join(dir, 'policy.md')) && existsSync(scenarios) && statSync(scenarios).isDirectory();
  },
  load: (dir) => ({ tasks: dialogueTasks(loadPack(dir)) }),
};
