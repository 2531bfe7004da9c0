/**
 * The host side of workspace snapshots, without an engine: reading the listings the walk prints
 * (sandbox/report/workspace_snapshot.py) and keeping the host's copy of the workspace current.
 */
import { describe, expect, it } from 'vitest';
import { exactName, parseListing, snapshotSpec } from '../../src/sandbox/docker/snapshot.js';
import { WorkspaceView } from '../../src/sandbox/docker/workspace-view.js';

const SHA_A = 'a'.repeat(64);
const SHA_B = 'b'.repeat(64);
/** A listing as the walk prints it: the first line, then NUL-ended fields. */
const listing = (first: string, ...records: (string | Buffer)[][]): Buffer =>
  Buffer.concat([
    Buffer.from(`${first}\n`),
    ...records.flat().map((f) => Buffer.concat([Buffer.from(f), Buffer.from([0])])),
  ]);

describe('parseListing', () => {
  it('reads a full listing of every kind of entry', () => {
    const r = parseListing(
      listing(
        'full 0a1b 12',
        ['f', 'src/a.py', SHA_A, '5', '420'],
        ['l', 'link', '../etc/passwd'],
        ['d', 'src', '493'],
        ['x', 'pipe', 'fifo', '420'],
      ),
    );
    expect(r).toEqual({
      kind: 'full',
      id: '0a1b',
      ms: 12,
      entries: new Map([
        ['src/a.py', { kind: 'file', sha256: SHA_A, size: 5, mode: 0o644 }],
        ['link', { kind: 'symlink', target: '../etc/passwd' }],
        ['src', { kind: 'dir', mode: 0o755 }],
        ['pipe', { kind: 'file', sha256: 'special:fifo', size: 0, mode: 0o644 }],
      ]),
    });
  });

  it('reads a change list, removals included, and a state the walk could not save', () => {
    const r = parseListing(listing('delta 0a1b - 3', ['f', 'new', SHA_B, '0', '420'], ['-', 'gone']));
    expect(r).toEqual({
      kind: 'delta',
      base: '0a1b',
      id: null,
      ms: 3,
      changes: new Map([
        ['new', { kind: 'file', sha256: SHA_B, size: 0, mode: 0o644 }],
        ['gone', null],
      ]),
    });
    expect(parseListing(listing('delta 0a1b 0a1b 0'))).toMatchObject({ kind: 'delta', changes: new Map() });
  });

  it('says why a walk failed, and refuses a listing it cannot read rather than guess', () => {
    expect(parseListing(Buffer.from('failed listing too large (70000000 bytes)\n'))).toEqual({
      kind: 'failed',
      reason: 'listing too large (70000000 bytes)',
    });
    for (const bad of [
      listing('full 0a1b', ['d', 'src', '493']), // no time
      listing('full 0a1b 1', ['d', 'src']), // a field missing
      listing('full 0a1b 1', ['f', 'a', SHA_A, 'five', '420']),
      listing('full 0a1b 1', ['-', 'a']), // a removal without a base
      listing('full 0a1b 1', ['q', 'a', '1']),
      Buffer.concat([listing('full 0a1b 1'), Buffer.from('d\0src')]), // cut in the middle of a record
    ])
      expect(parseListing(bad).kind, bad.toString('latin1')).toBe('failed');
  });

  it('keeps names exact: odd bytes never make two names one', () => {
    const odd = [
      Buffer.from([0x61, 0xff]),
      Buffer.from([0x61, 0xfe]),
      Buffer.from([0x61, 0xc3]),
      Buffer.from('a\uFFFD'),
    ];
    const names = odd.map(exactName);
    expect(new Set(names).size).toBe(4);
    expect(exactName(Buffer.from('é "x"\n.txt'))).toBe('é "x"\n.txt');
    expect(exactName(Buffer.from([0x61, 0xff, 0xc3, 0xa9]))).toBe('a\udcffé');
    const r = parseListing(
      listing('full 1 1', ['d', odd[0] as Buffer, '493'], ['d', odd[1] as Buffer, '493']),
    );
    expect(r.kind === 'full' ? r.entries.size : 0).toBe(2);
  });

  it('writes the spec the walk reads', () => {
    expect(snapshotSpec({ base: null, id: 'ff', rehash: true, budgetMs: 10_000, skip: ['skill'] })).toBe(
      '-:ff:1:10:skill',
    );
    expect(snapshotSpec({ base: 'aa', id: 'bb', rehash: false, budgetMs: 500, skip: [] })).toBe(
      'aa:bb:0:0.5',
    );
  });
});

describe('WorkspaceView', () => {
  const file = (path: string, sha: string, mode = 0o644): string[] => ['f', path, sha, '1', String(mode)];

  it('asks for a change list against the listing it holds, and applies it', () => {
    const view = new WorkspaceView(['skill']);
    expect(view.request(false)).toMatchObject({ base: null, rehash: false, skip: ['skill'] });
    expect(view.apply(parseListing(listing('full a1 4', file('a', SHA_A), ['d', 'd', '493'])), 0).ok).toBe(
      true,
    );
    expect(view.upToDate).toBe(true);
    expect(view.request(true)).toMatchObject({ base: 'a1', rehash: true });
    view.look();
    view.apply(parseListing(listing('delta a1 a2 2', file('b', SHA_B), ['-', 'a'])), 0);
    expect([...view.listing().keys()]).toEqual(['b', 'd']);
    expect(view.request(false).base).toBe('a2');
  });

  it('refuses a change list against a listing it does not hold', () => {
    const view = new WorkspaceView([]);
    view.apply(parseListing(listing('full a1 0', ['d', 'd', '493'])), 0);
    const r = view.apply(parseListing(listing('delta a0 a2 0', ['-', 'd'])), 0);
    expect(r).toMatchObject({ ok: false });
    expect([...view.listing().keys()]).toEqual(['d']);
  });

  it('is out of date after any other exec, and after a failed walk', () => {
    const view = new WorkspaceView([]);
    expect(view.upToDate).toBe(false);
    view.apply(parseListing(listing('full a1 0')), 0);
    expect(view.upToDate).toBe(true);
    view.outdate();
    expect(view.upToDate).toBe(false);
    expect(view.apply(parseListing(Buffer.from('failed too slow\n')), 0)).toEqual({
      ok: false,
      reason: 'too slow',
    });
    expect(view.upToDate).toBe(false);
  });

  it('reports the net change of each look, across several snapshots, sorted, with the time they cost', () => {
    const view = new WorkspaceView([]);
    view.apply(parseListing(listing('full a1 5', file('keep', SHA_A), file('tmp', SHA_A))), 5);
    expect(view.look()).toEqual({ paths: ['keep', 'tmp'], snapshotMs: 5 });
    // Two commands in one turn: z created, then tmp removed, keep changed and changed back.
    view.apply(parseListing(listing('delta a1 a2 1', file('z', SHA_A), file('keep', SHA_B))), 1);
    view.apply(parseListing(listing('delta a2 a3 2', ['-', 'tmp'], file('keep', SHA_A))), 2);
    expect(view.look()).toEqual({ paths: ['tmp', 'z'], snapshotMs: 3 });
    expect(view.look()).toEqual({ paths: [], snapshotMs: 0 });
    // A full listing (after one was lost) is diffed against what was held; a mode change counts.
    view.apply(parseListing(listing('full a9 1', file('keep', SHA_A, 0o755))), 0);
    expect(view.look().paths).toEqual(['keep', 'z']);
  });

  it('gives listings that later snapshots leave as they were', () => {
    const view = new WorkspaceView([]);
    view.apply(parseListing(listing('full a1 0', file('a', SHA_A))), 0);
    const before = view.listing();
    view.apply(parseListing(listing('delta a1 a2 0', file('a', SHA_B), ['d', 'b', '493'])), 0);
    expect(before).toEqual(new Map([['a', { kind: 'file', sha256: SHA_A, size: 1, mode: 0o644 }]]));
    expect([...view.listing().keys()]).toEqual(['a', 'b']);
  });

  it('starts from nothing after a reset', () => {
    const view = new WorkspaceView([]);
    view.apply(parseListing(listing('full a1 0', ['d', 'd', '493'])), 0);
    view.clear();
    expect(view.request(false).base).toBeNull();
    expect(view.listing().size).toBe(0);
    expect(view.look().paths).toEqual([]);
  });
});
