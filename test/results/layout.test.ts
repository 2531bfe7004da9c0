/**
 * Every path the layout makes stays inside the results folder whatever the task id or the model
 * name (a manifest's, a server's: `../x`, `a/b`, NUL, very long), and distinct names stay distinct.
 */
import { basename, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { artifactsDir, fileNamePart, modelSlug, resultFileName } from '../../src/results/layout.js';

const HOSTILE = [
  '../x',
  '../../etc/cron.d/x',
  '..',
  '.',
  '',
  'a/b',
  '/etc/passwd',
  'a\\b',
  'a\0b',
  '.hidden',
  '-rf',
  'x'.repeat(1000),
  `${'.'.repeat(300)}/`,
  'ünïcödé/模型',
  'qwen3:8b',
];

const RESULTS = resolve('/tmp/agent-bench-results');

function inside(path: string, root: string): boolean {
  const rel = relative(root, resolve(root, path));
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep);
}

describe('names in the results folder', () => {
  it('a result file is one plain file name directly in the folder, for any task id and model', () => {
    for (const task of HOSTILE)
      for (const model of HOSTILE) {
        const name = resultFileName(task, model, '20250101T000000000Z-abcd');
        const path = join(RESULTS, name);
        expect(inside(name, RESULTS), JSON.stringify([task, model])).toBe(true);
        expect(basename(path)).toBe(name);
        expect(name).not.toMatch(/[/\\\0]|^\./);
        expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
      }
  });

  it('an artifacts folder is artifacts/<task>/<model>/trial-<n>, each part a plain name', () => {
    for (const task of HOSTILE)
      for (const model of HOSTILE) {
        const rel = artifactsDir(task, model, 3);
        const parts = rel.split('/');
        expect(parts, JSON.stringify([task, model])).toHaveLength(4);
        expect(parts[0]).toBe('artifacts');
        expect(parts[3]).toBe('trial-3');
        for (const p of parts) expect(p).toMatch(/^[A-Za-z0-9_][A-Za-z0-9._-]{0,71}$/);
        expect(inside(rel, join(RESULTS, 'artifacts'))).toBe(true);
      }
    expect(() => artifactsDir('t', 'm', -1)).toThrow();
    expect(() => artifactsDir('t', 'm', 0.5)).toThrow();
  });

  it('keeps safe names as they are and distinct names distinct', () => {
    expect(fileNamePart('debug_python_v1')).toBe('debug_python_v1');
    expect(modelSlug('Qwen3-8B-Q4_K_M.gguf')).toBe('Qwen3-8B-Q4_K_M.gguf');
    const slugs = new Set(HOSTILE.map(modelSlug));
    expect(slugs.size).toBe(HOSTILE.length);
    expect(modelSlug('a/b')).not.toBe(modelSlug('a-b'));
  });

  it('makes a name of a huge hostile model name without backtracking (returns; no speed target)', () => {
    for (const name of [`${'-'.repeat(300_000)}x`, `a${'.-'.repeat(150_000)}`, '/'.repeat(300_000)]) {
      const slug = modelSlug(name);
      expect(slug.length).toBeLessThanOrEqual(72);
      expect(slug).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]*$/);
    }
  }, 10_000);
});
