/** Temporary skill folders for tests: a SKILL.md, files, and a manifest given as an object. */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const made: string[] = [];

export function skillFolder(
  files: Record<string, string | Buffer>,
  manifest?: unknown,
  opts: { executable?: string[]; name?: string } = {},
): string {
  const root = mkdtempSync(join(tmpdir(), 'agent-bench-skill-test-'));
  made.push(root);
  const dir = join(root, opts.name ?? 'my-skill');
  mkdirSync(dir);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  for (const path of opts.executable ?? []) chmodSync(join(dir, path), 0o755);
  if (manifest !== undefined)
    writeFileSync(join(dir, 'bench_manifest.json'), JSON.stringify(manifest, null, 2));
  return dir;
}

export function removeSkillFolders(): void {
  for (const root of made.splice(0)) rmSync(root, { recursive: true, force: true });
}

export const LEGACY_SKILL = join(import.meta.dirname, 'fixtures', 'legacy-report-skill');
