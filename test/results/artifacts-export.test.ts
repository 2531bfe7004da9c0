/**
 * Exporting a trial's artifacts writes only under that trial's folder in the results folder: a link
 * planted on the way is refused (never followed, never removed through), a link in the trial's own
 * place is replaced without touching what it points at, and a path from the sandbox that would climb
 * out is not written anywhere.
 */
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exportArtifacts } from '../../src/agent/artifacts.js';
import { artifactsDir } from '../../src/results/layout.js';
import type { Sandbox, SnapshotEntry, WorkspaceSnapshot } from '../../src/sandbox/types.js';
import { UsageError } from '../../src/util/errors.js';

const temps: string[] = [];
afterEach(() => {
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
});

function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'agent-bench-export-'));
  temps.push(dir);
  return dir;
}

/** A sandbox whose workspace holds `files`; only getFiles is used by the export. */
function sandboxWith(files: Record<string, string>): { sandbox: Sandbox; final: WorkspaceSnapshot } {
  const final = new Map<string, SnapshotEntry>(
    Object.entries(files).map(([p, c]) => [p, { kind: 'file', sha256: c, size: c.length, mode: 0o644 }]),
  );
  const sandbox = {
    getFiles: async (paths: string[]) =>
      new Map(paths.map((p) => [p, Buffer.from(files[p.replace(/^\/workspace\//, '')] ?? '')])),
  } as unknown as Sandbox;
  return { sandbox, final };
}

const TASK = { allowedWrites: ['**'], ignored: [] };

function folderIn(results: string) {
  const relative = artifactsDir('task_v1', 'model', 0);
  return { dir: join(results, relative), relative };
}

/** Every path under dir, for "nothing was written here". */
const tree = (dir: string) => readdirSync(dir, { recursive: true }).map(String).sort();

describe('exporting artifacts', () => {
  it('writes the produced files under the trial folder', async () => {
    const results = temp();
    const { sandbox, final } = sandboxWith({ 'out/a.txt': 'A', 'b.txt': 'B' });
    const records = await exportArtifacts(sandbox, TASK, new Map(), final, folderIn(results));
    expect(records.map((r) => [r.path, r.exported])).toEqual([
      ['b.txt', true],
      ['out/a.txt', true],
    ]);
    expect(readFileSync(join(folderIn(results).dir, 'out/a.txt'), 'utf8')).toBe('A');
  });

  it('refuses a link planted on the way, and neither writes nor removes where it points', async () => {
    const results = temp();
    const elsewhere = temp();
    const victim = join(elsewhere, 'task_v1', 'model', 'trial-0');
    mkdirSync(victim, { recursive: true });
    writeFileSync(join(victim, 'precious.txt'), 'keep me');
    symlinkSync(elsewhere, join(results, 'artifacts'));
    const { sandbox, final } = sandboxWith({ 'out/a.txt': 'A' });
    await expect(exportArtifacts(sandbox, TASK, new Map(), final, folderIn(results))).rejects.toThrow(
      UsageError,
    );
    expect(readFileSync(join(victim, 'precious.txt'), 'utf8')).toBe('keep me');
    expect(tree(elsewhere)).toEqual([
      'task_v1',
      'task_v1/model',
      'task_v1/model/trial-0',
      'task_v1/model/trial-0/precious.txt',
    ]);
  });

  it('replaces a link where the trial folder goes, leaving its target alone', async () => {
    const results = temp();
    const elsewhere = temp();
    writeFileSync(join(elsewhere, 'precious.txt'), 'keep me');
    const { dir } = folderIn(results);
    mkdirSync(join(dir, '..'), { recursive: true });
    symlinkSync(elsewhere, dir);
    const { sandbox, final } = sandboxWith({ 'precious.txt': 'overwritten?' });
    await exportArtifacts(sandbox, TASK, new Map(), final, folderIn(results));
    expect(readFileSync(join(elsewhere, 'precious.txt'), 'utf8')).toBe('keep me');
    expect(lstatSync(dir).isDirectory()).toBe(true);
    expect(readFileSync(join(dir, 'precious.txt'), 'utf8')).toBe('overwritten?');
  });

  it('does not write a path that climbs out of the trial folder', async () => {
    const base = temp();
    const results = join(base, 'results');
    mkdirSync(results);
    const { sandbox, final } = sandboxWith({
      '../../../escaped.txt': 'X',
      'a/../../b.txt': 'Y',
      'ok.txt': 'Z',
    });
    const records = await exportArtifacts(sandbox, TASK, new Map(), final, folderIn(results));
    expect(records.filter((r) => r.exported).map((r) => r.path)).toEqual(['ok.txt']);
    expect(tree(base).filter((p) => !p.startsWith('results/artifacts/task_v1/model/trial-0'))).toEqual([
      'results',
      'results/artifacts',
      'results/artifacts/task_v1',
      'results/artifacts/task_v1/model',
    ]);
  });

  it('refuses a folder that is not the relative path of a results folder', async () => {
    const results = temp();
    const { sandbox, final } = sandboxWith({ 'a.txt': 'A' });
    await expect(
      exportArtifacts(sandbox, TASK, new Map(), final, { dir: results, relative: '../x' }),
    ).rejects.toThrow(/is not \.\.\/x of a results folder/);
    expect(tree(results)).toEqual([]);
  });
});
