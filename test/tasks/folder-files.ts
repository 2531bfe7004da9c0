/** The files and tasks of the built-in task folders (tasks/<id>/), for tests that use their fixtures. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getTask } from '../../src/catalogue/built-in.js';
import type { WorkspaceTask } from '../../src/tasks/types.js';

const TASKS = join(import.meta.dirname, '..', '..', 'tasks');

/** tasks/<id>/<path>, as text: `files/x.py` is the starting workspace, `solution/x.py` the fix. */
export function taskFolderFile(id: string, path: string): string {
  return readFileSync(join(TASKS, id, path), 'utf8');
}

/** A built-in task with a workspace (not a dialogue task), by id. */
export function builtInTask(id: string): WorkspaceTask {
  const task = getTask(id);
  if (task === undefined) throw new Error(`no built-in task ${id}`);
  if (task.kind === 'dialogue') throw new Error(`${id} is a dialogue task: it has no workspace`);
  return task;
}

/**
 * The files a scripted command of a task folder writes, path -> content: heredocs (`cat > f
 * <<'EOF'`) and python3's `pathlib.Path("f").write_text(r'''…''')`.
 */
function writtenBy(command: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of command.matchAll(/cat > (\S+) <<'EOF'\n([\s\S]*?\n)EOF(?:\n|$)/g))
    out.set(m[1] ?? '', m[2] ?? '');
  for (const m of command.matchAll(/pathlib\.Path\("([^"]+)"\)\.write_text\(r'''([\s\S]*?)'''\)/g))
    out.set(m[1] ?? '', m[2] ?? '');
  return out;
}

/** The one file a scripted command (tasks/<id>/<path>) writes under this name. */
export function writtenFile(id: string, path: string, file: string): string {
  const content = writtenBy(taskFolderFile(id, path)).get(file);
  if (content === undefined) throw new Error(`${id}/${path} writes no ${file}`);
  return content;
}
