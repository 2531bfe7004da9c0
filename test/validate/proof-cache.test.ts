/**
 * The proof cache keeps passing proofs only, gives them back as cached rows, and trusts no entry it
 * cannot vouch for: a damaged file, another format's entry, or another key's or task's proof is
 * ignored with a note, never returned.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Task } from '../../src/tasks/types.js';
import { defaultProofDir, openProofCache } from '../../src/validate/proof-cache.js';
import type { ValidationRow } from '../../src/validate/rows.js';

const KEY = 'a'.repeat(64);
const task = { id: 'doc_trap_v1' } as Task;
const passed = (run: string): ValidationRow => ({ taskId: task.id, run, kind: 'passed', detail: 'passes' });
const NOW = new Date('2026-12-05T06:00:00.000Z');

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function open(): { dir: string; notes: string[]; cache: ReturnType<typeof openProofCache> } {
  const dir = mkdtempSync(join(tmpdir(), 'proofs-'));
  temps.push(dir);
  const notes: string[] = [];
  return { dir, notes, cache: openProofCache({ dir, onNote: (line) => notes.push(line), now: () => NOW }) };
}

describe('openProofCache', () => {
  it('gives a saved proof back as cached rows, stamped with its key and time', async () => {
    const { cache, dir } = open();
    await cache.save(task, KEY, [passed('oracle'), passed('do-nothing')]);
    expect(await cache.load(task, KEY)).toEqual([
      {
        taskId: task.id,
        run: 'oracle',
        kind: 'cached',
        detail: 'passes',
        proof: { key: KEY, provedAt: NOW.toISOString() },
      },
      {
        taskId: task.id,
        run: 'do-nothing',
        kind: 'cached',
        detail: 'passes',
        proof: { key: KEY, provedAt: NOW.toISOString() },
      },
    ]);
    // Written whole under its key, through a temp file renamed into place: nothing else is left.
    expect(readdirSync(dir)).toEqual([`${KEY}.json`]);
  });

  it('never keeps a proof with a row that did not pass', async () => {
    const { cache, dir } = open();
    for (const kind of ['failed', 'error'] as const) {
      await cache.save(task, KEY, [passed('oracle'), { taskId: task.id, run: 'lure', kind, detail: 'x' }]);
    }
    await cache.save(task, KEY, []);
    expect(readdirSync(dir)).toEqual([]);
    expect(await cache.load(task, KEY)).toBeNull();
  });

  it('has nothing for a key it never saw', async () => {
    const { cache, notes } = open();
    await cache.save(task, KEY, [passed('oracle')]);
    expect(await cache.load(task, 'b'.repeat(64))).toBeNull();
    expect(notes).toEqual([]);
  });

  it.each([
    ['a damaged (half-written) file', (text: string) => text.slice(0, 40), /not JSON/],
    [
      'another format',
      (text: string) => text.replace('agent-bench-proof/1', 'agent-bench-proof/0'),
      /not an entry of format agent-bench-proof\/1/,
    ],
    [
      'no rows',
      (text: string) => JSON.stringify({ ...JSON.parse(text), rows: [] }),
      /not an entry of format agent-bench-proof\/1/,
    ],
    [
      "another key's proof copied under this name",
      (text: string) => text.replace(KEY, 'c'.repeat(64)),
      /proof of doc_trap_v1 under key cccccccccccc/,
    ],
    [
      "another task's proof",
      (text: string) => text.replace('"doc_trap_v1"', '"debug_js_v1"'),
      /proof of debug_js_v1/,
    ],
  ])('ignores %s with a note', async (_what, damage, why) => {
    const { cache, dir, notes } = open();
    await cache.save(task, KEY, [passed('oracle')]);
    const file = join(dir, `${KEY}.json`);
    writeFileSync(file, damage(readFileSync(file, 'utf8')));
    expect(await cache.load(task, KEY)).toBeNull();
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(why);
    expect(notes[0]).toMatch(/doc_trap_v1: ignored the cached proof .*proving it again/);
  });

  it('notes a cache it cannot write, and goes on', async () => {
    const { dir, notes } = open();
    writeFileSync(join(dir, 'file'), '');
    const cache = openProofCache({ dir: join(dir, 'file', 'proofs'), onNote: (line) => notes.push(line) });
    await cache.save(task, KEY, [passed('oracle')]);
    expect(notes[0]).toMatch(/could not cache its proof/);
  });

  it('lives under AGENT_BENCH_CACHE when set, else ~/.cache/agent-bench', () => {
    expect(defaultProofDir({ AGENT_BENCH_CACHE: '/c' })).toBe('/c/proofs');
    expect(defaultProofDir({})).toMatch(/\/\.cache\/agent-bench\/proofs$/);
  });
});
