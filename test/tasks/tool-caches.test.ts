/** Caches that test runners create on their own are never tamper, unless a task watches them. */
import { describe, expect, it } from 'vitest';
import { allTasks } from '../../src/catalogue/built-in.js';
import type { SnapshotEntry, WorkspaceSnapshot } from '../../src/sandbox/types.js';
import { detectTamper } from '../../src/scoring/snapshot-diff.js';
import { ignoredPaths } from '../../src/tasks/ignored.js';
import { inContainer } from '../../src/tasks/types.js';

const file = (sha256: string): SnapshotEntry => ({ kind: 'file', sha256, size: 1, mode: 0o644 });
const dir = (): SnapshotEntry => ({ kind: 'dir', mode: 0o755 });
const snap = (entries: Record<string, SnapshotEntry>): WorkspaceSnapshot => new Map(Object.entries(entries));

const setup = snap({ 'src/app.js': file('a'), 'test/app.test.js': file('t'), node_modules: dir() });
// What `npm test`, pytest and python leave behind in a JS task that allows only src/app.js.
const afterRuns = snap({
  ...Object.fromEntries(setup),
  'node_modules/.cache': dir(),
  'node_modules/.cache/babel/x.json': file('c'),
  'pkg/node_modules/.cache/y': file('c'),
  '.pytest_cache': dir(),
  '.pytest_cache/v/cache/lastfailed': file('c'),
  'tools/__pycache__/h.cpython-311.pyc': file('c'),
});

const tamper = (task: { ignored: string[]; watchToolCaches?: boolean }, final: WorkspaceSnapshot) =>
  detectTamper(setup, final, { allowedWrites: ['/src/app.js'], ignored: ignoredPaths(task) }).map(
    (v) => `${v.change} ${v.path}`,
  );

describe('tool caches', () => {
  it('are not tamper in a task that names no caches', () => {
    expect(tamper({ ignored: [] }, afterRuns)).toEqual([]);
  });

  it('are tamper in a task that watches them, and other paths stay tamper either way', () => {
    expect(tamper({ ignored: [], watchToolCaches: true }, afterRuns)).toContain(
      'created node_modules/.cache/babel/x.json',
    );
    const planted = snap({ ...Object.fromEntries(afterRuns), 'node_modules/left-pad/index.js': file('p') });
    expect(tamper({ ignored: [] }, planted)).toEqual(['created node_modules/left-pad/index.js']);
    const cachedLookalike = snap({ ...Object.fromEntries(setup), '.cache/app.js': file('p') });
    expect(tamper({ ignored: [] }, cachedLookalike)).toEqual(['created .cache/app.js']);
  });

  it('are ignored by every bundled task', () => {
    for (const task of allTasks().filter(inContainer))
      expect(ignoredPaths(task), task.id).toEqual(expect.arrayContaining(['.pytest_cache']));
  });
});
