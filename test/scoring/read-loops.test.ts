/**
 * Reads matched against the file as it was when they ran (file-versions.ts, seen.ts), and read loops
 * as the same content shown again and again (readRepeats): never by how the commands were worded.
 */
import { describe, expect, it } from 'vitest';
import type { ToolCallLog } from '../../src/results/trial.js';
import { readRepeats } from '../../src/scoring/check-helpers.js';
import { fileVersions } from '../../src/scoring/file-versions.js';
import { firstRead, readsOf } from '../../src/scoring/seen.js';
import type { CheckContext } from '../../src/tasks/types.js';
import { proc, readFile, traced, writeFile } from './call-fixtures.js';

const lines = (tag: string, n: number): string =>
  `${Array.from({ length: n }, (_, i) => `value_${tag}_${i} = compute_${tag}(${i})`).join('\n')}\n`;

const SETUP = lines('old', 12);
const EDITED = lines('new', 12);
const FILE = '/workspace/m.py';

type Ctx = Pick<CheckContext, 'calls' | 'setupFiles' | 'changeTurns'>;

/** One call per turn; `changed`: the turns whose snapshot changed m.py. */
function ctxOf(calls: ToolCallLog[], changed: number[] = []): Ctx {
  return {
    calls: calls.map((c, i) => ({ ...c, turn: i + 1 })),
    setupFiles: new Map([['m.py', SETUP]]),
    changeTurns: new Map(changed.length > 0 ? [['m.py', changed]] : []),
  };
}

const shown = (stdout: string): ToolCallLog => ({ ...readFile('m.py'), stdout });
const cat = (stdout: string): ToolCallLog =>
  traced('cat m.py', { stdout, processes: [proc(['cat', 'm.py'], { reads: [FILE] })] });
const sedEdit = traced("sed -i 's/old/new/g' m.py", {
  processes: [proc(['sed', '-i', 's/old/new/g', 'm.py'], { reads: [FILE], writes: [FILE] })],
});

describe('reads are matched against the file as it was when they ran', () => {
  it('after a write_file, against what was written; firstRead counts only the setup content', () => {
    const ctx = ctxOf([writeFile('m.py', EDITED), cat(EDITED)], [1]);
    const reads = readsOf(ctx, FILE);
    expect(reads.map((r) => [r.turn, r.version.content === EDITED, r.shown.lines.length])).toEqual([
      [2, true, 12],
    ]);
    expect(firstRead(ctx, FILE)).toBeUndefined();
  });

  it('content no longer in the file earns nothing: setup lines shown after the change are no read of it', () => {
    // The model is shown the old lines (say, from a backup) after the file changed.
    const ctx = ctxOf([writeFile('m.py', EDITED), cat(SETUP)], [1]);
    expect(readsOf(ctx, FILE)).toEqual([]);
    expect(firstRead(ctx, FILE)).toBeUndefined();
    // Before the change the same output is a read.
    expect(firstRead(ctxOf([cat(SETUP), writeFile('m.py', EDITED)], [2]), FILE)?.turn).toBe(1);
  });

  it('after a command changed it, the content is unknown until a whole read_file shows it', () => {
    const ctx = ctxOf([sedEdit, cat(EDITED), shown(EDITED), cat(EDITED)], [1]);
    const versions = fileVersions(ctx, 'm.py');
    expect(versions.map((v) => [v.from, v.content === null ? null : v.content === EDITED])).toEqual([
      [null, false],
      [{ call: 0, step: 1 }, true],
    ]);
    // cat in turn 2 ran in the version read_file revealed in turn 3: the same content.
    expect(readsOf(ctx, FILE).map((r) => r.turn)).toEqual([2, 3, 4]);
  });

  it('a command that rewrote the file unchanged (no change in its turn) starts no version', () => {
    const ctx = ctxOf([sedEdit, cat(SETUP)]);
    expect(fileVersions(ctx, 'm.py')).toHaveLength(1);
    expect(firstRead(ctx, FILE)?.turn).toBe(2);
  });
});

describe('readRepeats: the same content shown again and again', () => {
  const repeats = (calls: ToolCallLog[], changed: number[] = []) =>
    Object.fromEntries(readRepeats(ctxOf(calls, changed), ['m.py']));
  const part = (from: number, to: number) => SETUP.split('\n').slice(from, to).join('\n');

  it('counts whole reads by any command, whatever the path was spelt', () => {
    expect(repeats([shown(SETUP), cat(SETUP), { ...readFile('./m.py'), stdout: SETUP }, cat(SETUP)])).toEqual(
      {
        'm.py': 4,
      },
    );
  });

  it('paging through a file in parts is no loop; the same part again is', () => {
    expect(repeats([cat(part(0, 6)), cat(part(6, 12))])).toEqual({ 'm.py': 1 });
    expect(repeats([cat(part(0, 6)), cat(part(0, 6)), cat(part(2, 8))])).toEqual({ 'm.py': 3 });
  });

  it('a call counts only for the file it took the lines from (read_file of it, or a process that opened it)', () => {
    const elsewhere = traced('cat copy.py', {
      stdout: SETUP,
      processes: [proc(['cat', 'copy.py'], { reads: ['/workspace/copy.py'] })],
    });
    expect(repeats([elsewhere, elsewhere, elsewhere, elsewhere])).toEqual({});
  });

  it('search hits of a line or two are no reads', () => {
    const hit = cat(`m.py:3:${part(2, 3)}`);
    expect(repeats([hit, hit, hit, hit, hit])).toEqual({});
  });

  it('reads after the file changed are counted against its new content', () => {
    const calls = [shown(SETUP), shown(SETUP), writeFile('m.py', EDITED), shown(EDITED), shown(EDITED)];
    expect(repeats(calls, [3])).toEqual({ 'm.py': 2, 'm.py (as changed in turn 3)': 2 });
  });
});
