/**
 * A skill folder is untrusted: each attack is tried, and what counts is that no byte of a host file
 * outside the folder reaches anything the harness makes from it (the loaded skill, the staged copy,
 * the transcript texts, the digest, the error message), and that nothing is written through a link.
 */
import { spawnSync } from 'node:child_process';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { skillInitCommand } from '../../src/cli/commands/skill.js';
import { selectWithSkills } from '../../src/cli/select-tasks.js';
import { MAX_ENTRIES, readSkillFolder } from '../../src/manifest/folder.js';
import { loadSkill } from '../../src/skills/load.js';
import { skillTask } from '../../src/skills/skill-task.js';
import { stageSkill } from '../../src/skills/stage.js';
import { InfraError, UsageError } from '../../src/util/errors.js';
import { removeSkillFolders, skillFolder } from './skill-folder.js';

const SECRET = 'HOST-SECRET-7f3a9c: must never leave the host file';
const temps: string[] = [];
const servers: Server[] = [];

afterEach(() => {
  removeSkillFolders();
  for (const s of servers.splice(0)) s.close();
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
});

function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'agent-bench-hostile-'));
  temps.push(dir);
  return dir;
}

/** A host folder holding a secret file, outside any skill folder. */
function hostSecret(): { dir: string; file: string } {
  const dir = temp();
  const file = join(dir, 'shadow');
  writeFileSync(file, SECRET);
  return { dir, file };
}

const validSkill = (extra: Record<string, string> = {}) =>
  skillFolder({ 'SKILL.md': '# s\n', 'data/in.csv': 'a,b\n', ...extra }, { id: 'hostile_skill' });

/** Loading must fail with one usage error; returns its message. */
function refusal(dir: string): string {
  try {
    loadSkill(dir);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as UsageError).message;
  }
  throw new Error('the hostile skill loaded');
}

/** Every file under dir, recursively, as text. */
function allText(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'))
    .join('\n');
}

describe('links out of a skill folder', () => {
  it('a link to a host file is refused, named, and its content appears nowhere', () => {
    const { file } = hostSecret();
    const dir = validSkill();
    symlinkSync(file, join(dir, 'data/notes.txt'));
    const message = refusal(dir);
    expect(message).toMatch(/data\/notes\.txt: a link to .*shadow, outside the skill folder/);
    expect(message).not.toContain(SECRET);
    // Every task path that reads skills refuses it too.
    expect(() => selectWithSkills({ tasks: 'all', skillDirs: [dir], skillAb: false })).toThrow(UsageError);
  });

  it('a link to a host folder is refused, and nothing under it is read', () => {
    const { dir: host } = hostSecret();
    const dir = validSkill();
    symlinkSync(host, join(dir, 'refs'));
    const message = refusal(dir);
    expect(message).toMatch(/refs: a link to .*, outside the skill folder/);
    expect(message).not.toContain(SECRET);
  });

  it('a link by a relative path that climbs out is refused like an absolute one', () => {
    const { file } = hostSecret();
    const dir = validSkill();
    const up = join(dir, 'data').split('/').length - 1;
    symlinkSync(`${'../'.repeat(up)}${file.slice(1)}`, join(dir, 'data/up.txt'));
    expect(refusal(dir)).toMatch(/data\/up\.txt: a link to (\.\.\/)+.*shadow, outside the skill folder/);
  });

  it('a link to a file inside the folder is kept, read as that file, and staged as a plain copy', () => {
    const dir = validSkill();
    symlinkSync('in.csv', join(dir, 'data/alias.csv'));
    const skill = loadSkill(dir);
    expect(skill.folder.read('data/alias.csv').toString()).toBe('a,b\n');
    const staged = stageSkill(skill.folder, skill.digest, skill.spec.stubs, temp());
    expect(lstatSync(join(staged, 'data/alias.csv')).isFile()).toBe(true);
    expect(readFileSync(join(staged, 'data/alias.csv'), 'utf8')).toBe('a,b\n');
  });

  it('a link to a folder, even inside, is refused (no loops, no second copies)', () => {
    const dir = validSkill();
    symlinkSync('.', join(dir, 'data/loop'));
    expect(refusal(dir)).toMatch(/data\/loop: a link to a folder/);
  });

  it('a broken link is refused', () => {
    const dir = validSkill();
    symlinkSync('/nonexistent/agent-bench', join(dir, 'gone'));
    expect(refusal(dir)).toMatch(/gone: a broken link/);
  });

  it('a file swapped for a link after the folder was read is not read through', () => {
    const { file } = hostSecret();
    const dir = validSkill();
    const { folder } = readSkillFolder(dir);
    unlinkSync(join(dir, 'data/in.csv'));
    symlinkSync(file, join(dir, 'data/in.csv'));
    expect(() => folder?.read('data/in.csv')).toThrow(UsageError);
    expect(() => folder?.read('data/in.csv')).toThrow(/cannot be read \(ELOOP\)/);
  });

  it('what the loaded skill yields (staged copy, transcript texts) never holds a host file', () => {
    // The same folder with the link in place is refused; without it, nothing of the secret is anywhere.
    const { file } = hostSecret();
    const dir = validSkill({ 'scripts/x.sh': 'echo x\n' });
    const task = skillTask(loadSkill(dir));
    const staged = task.environment.mounts?.[0]?.hostPath as string;
    symlinkSync(file, join(dir, 'data/late.txt'));
    // Already loaded and staged: the later link changes nothing that was made.
    expect(allText(staged)).not.toContain(SECRET);
    expect(JSON.stringify(task.mountedFiles)).not.toContain(SECRET);
    expect(refusal(dir)).toMatch(/data\/late\.txt: a link/);
  });
});

describe('special files and sizes', () => {
  it('a fifo is refused without blocking on it', () => {
    const dir = validSkill();
    expect(spawnSync('mkfifo', [join(dir, 'data/pipe')]).status).toBe(0);
    expect(refusal(dir)).toMatch(/data\/pipe: a fifo, not a regular file/);
  });

  it('a socket is refused', async () => {
    const dir = validSkill();
    const server = createServer();
    servers.push(server);
    await new Promise<void>((done) => server.listen(join(dir, 'sock'), done));
    expect(refusal(dir)).toMatch(/sock: a socket, not a regular file/);
  });

  it.skipIf(process.getuid?.() !== 0)('a device is refused (root can make one)', () => {
    const dir = validSkill();
    expect(spawnSync('mknod', [join(dir, 'null'), 'c', '1', '3']).status).toBe(0);
    expect(refusal(dir)).toMatch(/null: a device, not a regular file/);
  });

  it('a 1 GiB file is refused by name, without being read', () => {
    const dir = validSkill();
    writeFileSync(join(dir, 'data/huge.bin'), '');
    truncateSync(join(dir, 'data/huge.bin'), 2 ** 30);
    expect(refusal(dir)).toMatch(/data\/huge\.bin: 1024 MiB, and the folder passes 200 MiB/);
  });

  it('a folder of more files than any skill has is refused', () => {
    const dir = validSkill();
    mkdirSync(join(dir, 'many'));
    for (let i = 0; i <= MAX_ENTRIES; i++) writeFileSync(join(dir, 'many', String(i)), '');
    expect(refusal(dir)).toMatch(new RegExp(`more than ${MAX_ENTRIES} files and folders`));
  });

  it('--skill-dir /proc, a file, or nothing at all is one clear refusal', () => {
    expect(refusal('/proc')).toMatch(
      /^skill folder \/proc has \d+ problems:\n {2}SKILL\.md: not found: is this a skill folder\?\n/,
    );
    const dir = validSkill();
    expect(refusal(join(dir, 'SKILL.md'))).toMatch(/SKILL\.md is not a folder/);
    expect(refusal(join(dir, 'nope'))).toMatch(/nope does not exist/);
  });
});

describe('writes next to a skill', () => {
  it('skill init refuses a folder with a link out, and leaves the link target alone', async () => {
    const { file } = hostSecret();
    const dir = skillFolder({ 'SKILL.md': '# s\n' });
    symlinkSync(file, join(dir, 'bench_manifest.json'));
    await expect(skillInitCommand(dir, { force: true, stdout: { write: () => true } })).rejects.toThrow(
      /bench_manifest\.json: a link to .*, outside the skill folder/,
    );
    expect(readFileSync(file, 'utf8')).toBe(SECRET);
  });

  it('skill init --force replaces a manifest that links inside the folder, not the file it links to', async () => {
    const dir = skillFolder({ 'SKILL.md': '# s\n', 'old.json': '{}\n' });
    symlinkSync('old.json', join(dir, 'bench_manifest.json'));
    await skillInitCommand(dir, { force: true, stdout: { write: () => true } });
    expect(readFileSync(join(dir, 'old.json'), 'utf8')).toBe('{}\n');
    expect(lstatSync(join(dir, 'bench_manifest.json')).isFile()).toBe(true);
  });

  it('a staging folder planted as a link is refused, and nothing is written where it points', () => {
    const skill = loadSkill(validSkill());
    const elsewhere = temp();
    const root = join(temp(), 'skills');
    symlinkSync(elsewhere, root);
    expect(() => stageSkill(skill.folder, skill.digest, [], root)).toThrow(InfraError);
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});
