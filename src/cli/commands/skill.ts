/** `agent-bench skill init DIR`: writes a starter bench_manifest.json and says what is left to decide. */
import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { MANIFEST_FILE, readSkillFolder, SKILL_FILE } from '../../skills/folder.js';
import { proposeManifest } from '../../skills/init.js';
import { skillUsageError } from '../../skills/problems.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { UsageError } from '../../util/errors.js';

export interface SkillInitCliOptions {
  force: boolean;
  /** Where the summary goes (tests capture it). */
  stdout?: { write(text: string): unknown };
}

export async function skillInitCommand(dir: string, o: SkillInitCliOptions): Promise<void> {
  const out = o.stdout ?? process.stdout;
  const { folder, problems } = readSkillFolder(resolve(dir));
  if (folder === null || problems.length > 0) throw skillUsageError(dir, problems);
  if (!folder.files.has(SKILL_FILE))
    throw new UsageError(`${dir} has no ${SKILL_FILE}: is it a skill folder?`);
  const target = join(folder.dir, MANIFEST_FILE);
  if (existsSync(target) && !o.force) throw new UsageError(`${target} exists; pass --force to replace it`);
  const { manifest, todo } = proposeManifest(folder, basename(folder.dir));
  // Renamed into place: a bench_manifest.json that is a link is replaced, never written through.
  await writeFileAtomic(target, `${JSON.stringify(manifest, null, 2)}\n`);
  out.write(
    `wrote ${target}\nTo decide (also listed under "_todo" in the file):\n${todo.map((t) => `  - ${t}`).join('\n')}\n` +
      `Then prove it: agent-bench validate --skill-dir ${dir}\n`,
  );
}
