/**
 * `agent-bench skill init DIR`: creates the folder and a SKILL.md template when missing (never
 * replacing a SKILL.md), writes a starter bench_manifest.json and says what is left to decide.
 */
import { existsSync, lstatSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { MANIFEST_FILE, readSkillFolder, SKILL_FILE } from '../../manifest/folder.js';
import { skillUsageError } from '../../manifest/problems.js';
import { proposeManifest, skillTemplate } from '../../skills/init.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { UsageError } from '../../util/errors.js';

export interface SkillInitCliOptions {
  force: boolean;
  /** Where the summary goes (tests capture it). */
  stdout?: { write(text: string): unknown };
}

export async function skillInitCommand(dir: string, o: SkillInitCliOptions): Promise<void> {
  const out = o.stdout ?? process.stdout;
  const root = resolve(dir);
  const created: string[] = [];
  if (!existsSync(root)) {
    try {
      mkdirSync(root, { recursive: true });
    } catch (err) {
      throw new UsageError(`cannot create the skill folder ${dir}: ${(err as Error).message}`, {
        cause: err,
      });
    }
    created.push(root);
  }
  if (lstatSync(root).isDirectory() && !lstatExists(join(root, SKILL_FILE))) {
    // 'wx': created only if nothing (not even a link) is there, so an existing SKILL.md is never replaced.
    writeFileSync(join(root, SKILL_FILE), skillTemplate(basename(root)), { flag: 'wx' });
    created.push(join(root, SKILL_FILE));
  }
  const { folder, problems } = readSkillFolder(root);
  if (folder === null || problems.length > 0) throw skillUsageError(dir, problems);
  const target = join(folder.dir, MANIFEST_FILE);
  if (existsSync(target) && !o.force) throw new UsageError(`${target} exists; pass --force to replace it`);
  const { manifest, todo } = proposeManifest(folder, basename(folder.dir));
  // Renamed into place: a bench_manifest.json that is a link is replaced, never written through.
  await writeFileAtomic(target, `${JSON.stringify(manifest, null, 2)}\n`);
  const fresh = created.includes(join(root, SKILL_FILE))
    ? `First write ${join(root, SKILL_FILE)} (a template with TODOs), then run \`agent-bench skill init ${dir} --force\` again to propose reads and commands from it.\n`
    : '';
  out.write(
    `${created.map((p) => `created ${p}\n`).join('')}wrote ${target}\n${fresh}` +
      `To decide (also listed under "_todo" in the file):\n${todo.map((t) => `  - ${t}`).join('\n')}\n` +
      `Then prove it: agent-bench validate --skill-dir ${dir}\n`,
  );
}

/** True when anything is at the path, a dangling link included (existsSync follows links). */
function lstatExists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
