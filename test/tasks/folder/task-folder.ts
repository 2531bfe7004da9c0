/** Task folders written for tests, in temporary directories removed after each test. */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const made: string[] = [];

/** The smallest sound task.toml: a read and an artifact check, an oracle and a lure. */
export const MINIMAL_TOML = `max_turns = 5
allowed_writes = ["/out.txt"]

[meta]
description = "Write out.txt from notes.txt."

[[flags]]
id = "read_notes"
kind = "process"
description = "Read notes.txt."
read = { file = "notes.txt" }

[[flags]]
id = "wrote"
kind = "outcome"
description = "out.txt says done."
artifact = { file = "out.txt", contains = ["done"] }

[[reference_solution]]
text = "Reading first."
calls = [{ name = "read_file", arguments = { path = "notes.txt" } }]

[[reference_solution]]
calls = [{ name = "write_file", arguments = { path = "out.txt", content = { "$file" = "solution/out.txt" } } }]

[[lures]]
id = "no_read"
description = "Writes without reading."
expect = { unreached = ["read_notes"] }
script = [{ name = "write_file", arguments = { path = "out.txt", content = "done\\n" } }]
`;

export const MINIMAL_FILES: Record<string, string> = {
  'task.toml': MINIMAL_TOML,
  'instruction.md': 'Write /workspace/out.txt. You have execute_command, read_file and write_file.\n\n',
  'files/notes.txt': 'one\ntwo\nthree\nfour\n',
  'solution/out.txt': 'done\n',
};

/** A folder `name` under a fresh temporary root holding these files (paths relative to it). */
export function taskFolder(files: Record<string, string>, name = 'sample_task_v1'): string {
  const root = mkdtempSync(join(tmpdir(), 'agent-bench-task-'));
  made.push(root);
  const dir = join(root, name);
  for (const [rel, content] of Object.entries(files)) {
    const path = join(dir, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
  mkdirSync(dir, { recursive: true });
  return dir;
}

export function makeExecutable(path: string): void {
  chmodSync(path, 0o755);
}

export function removeTaskFolders(): void {
  for (const root of made.splice(0)) rmSync(root, { recursive: true, force: true });
}
