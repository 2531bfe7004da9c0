/** agent-bench's own task folders: task.toml or task.json, files/, hidden/, solution/, flags.ts (src/tasks/folder/). */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MANIFEST_FILES } from '../tasks/folder/layout.js';
import { loadTaskFolder } from '../tasks/folder/load.js';
import type { TaskFormat } from './format.js';

export const nativeFormat: TaskFormat = {
  noun: 'a task folder (task.toml or task.json)',
  claims: (dir) => MANIFEST_FILES.some((f) => existsSync(join(dir, f))),
  load: (dir) => ({ tasks: [loadTaskFolder(dir)] }),
};
