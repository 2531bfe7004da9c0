/**
 * `agent-bench task export --format harbor ID --out DIR`: a native task written as a Harbor task
 * folder (src/catalogue/harbor-export/), so it runs in Harbor too. Only task folders can be
 * exported; every other kind is refused in one line with its reason.
 */
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { harborExport } from '../../catalogue/harbor-export/folder.js';
import { isFreeFolder } from '../../catalogue/native/from-trial.js';
import { readTaskManifest } from '../../catalogue/native/load.js';
import type { Task } from '../../tasks/types.js';
import { taskVersion } from '../../tasks/version.js';
import { UsageError } from '../../util/errors.js';
import { selectWithSkills } from '../select-tasks.js';

export interface TaskExportOptions {
  format: string;
  out: string;
  tasksDir?: string[];
}

const FORMATS = ['harbor'];

export async function taskExportCommand(
  id: string,
  o: TaskExportOptions,
  out: { write(text: string): unknown } = process.stdout,
): Promise<void> {
  if (!FORMATS.includes(o.format))
    throw new UsageError(`--format ${o.format}: the formats are ${FORMATS.join(', ')}`);
  const [task] = selectWithSkills({ tasks: id, skillDirs: [], skillAb: false, tasksDirs: o.tasksDir ?? [] });
  if (task === undefined) throw new UsageError(`no task ${id}`);
  if (task.kind !== 'sandbox' || task.folder === undefined) throw new UsageError(refusal(task));
  if (!isFreeFolder(o.out))
    throw new UsageError(`${o.out} is not an empty folder: give a new one for the export`);
  const { files, exported } = harborExport(task, readTaskManifest(task.folder.dir), taskVersion(task));
  for (const [path, f] of files) {
    const at = join(o.out, path);
    await mkdir(dirname(at), { recursive: true });
    await writeFile(at, f.content);
    await chmod(at, f.mode);
  }
  const flags = exported.checks.map((c) => c.flag);
  const left = [...new Set(exported.leftOut.map((l) => l.flag))].filter((f) => !flags.includes(f));
  out.write(
    `Harbor task written to ${o.out} (${files.size} files): tests/test.sh judges ${flags.join(', ')}` +
      `${left.length === 0 ? '' : `; left out (judged on the trace, see README.md): ${left.join(', ')}`}\n`,
  );
}

function refusal(task: Task): string {
  switch (task.kind) {
    case 'dialogue':
      return `${task.id} is a dialogue task: its verdict is the conversation with a simulated user, which a Harbor verifier cannot see`;
    case 'harbor':
      return `${task.id} is a Harbor task already: its folder is the export`;
    case 'skill':
      return `${task.id} is a skill task: export covers task folders (a skill's flags are judged on the trace)`;
    case 'sandbox':
      return `${task.id} is built in code, not a task folder: nothing to export`;
  }
}
