/** agent-bench's own task folders: task.toml or task.json, files/, hidden/, solution/, flags.ts (src/catalogue/native/). */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { TaskFormat } from './format.js';
import { MANIFEST_FILES } from './native/layout.js';
import { loadTaskFolder } from './native/load.js';

export const nativeFormat: TaskFormat = {
  noun: 'a task folder (task.toml or task.json)',
  claims: (dir) => MANIFEST_FILES.some((f) => existsSync(join(dir, f))),
  load: (dir) => ({ tasks: [loadTaskFolder(dir)] }),
};
