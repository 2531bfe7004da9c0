/** Files in and out: the agent's readFile and writeFile, the harness's putFiles and getFiles. */
import { describe, expect, it } from 'vitest';
import { CHECKER_HOME, HARNESS_DIR, WORKSPACE_DIR } from '../../../src/sandbox/types.js';
import { ALL_BYTES, type Conformance } from './context.js';

const TEXT = 'quotes \' " $HOME `id` \\ \n tabs\t ünïcödé ✓ 🎉\n';

export function fileCases(ctx: Conformance): void {
  const { can } = ctx;
  const mode = async (path: string) => {
    const entry = (await ctx.sb.snapshot()).get(path);
    return entry?.kind === 'file' ? entry.mode : entry;
  };

  describe('putFiles and getFiles', () => {
    it('round-trip every byte value, nested paths and empty files, keyed by the paths asked for', async () => {
      await ctx.sb.putFiles([
        { path: `${WORKSPACE_DIR}/src/deep/er/all.bin`, content: ALL_BYTES },
        { path: `${WORKSPACE_DIR}/empty.txt`, content: '' },
        { path: `${WORKSPACE_DIR}/text.txt`, content: TEXT },
      ]);
      const paths = ['src/deep/er/all.bin', 'empty.txt', 'text.txt'].map((p) => `${WORKSPACE_DIR}/${p}`);
      const got = await ctx.sb.getFiles(paths);
      expect([...got.keys()].sort()).toEqual([...paths].sort());
      expect(got.get(`${WORKSPACE_DIR}/src/deep/er/all.bin`)?.equals(ALL_BYTES)).toBe(true);
      expect(got.get(`${WORKSPACE_DIR}/empty.txt`)?.length).toBe(0);
      expect(got.get(`${WORKSPACE_DIR}/text.txt`)?.toString('utf8')).toBe(TEXT);
    });

    it('leave out what is missing, and what is no file', async () => {
      await ctx.sb.putFiles([{ path: 'dir/here.txt', content: 'here' }]);
      const got = await ctx.sb.getFiles([`${WORKSPACE_DIR}/nope.txt`, `${WORKSPACE_DIR}/dir`, '/nowhere/x']);
      expect(got.size).toBe(0);
      expect((await ctx.sb.getFiles([])).size).toBe(0);
    });

    it('put a relative path under /workspace, with mode 0644 unless told otherwise', async () => {
      await ctx.sb.putFiles([
        { path: 'rel/plain.txt', content: 'plain' },
        { path: 'rel/tool.sh', content: '#!/bin/sh\necho tool\n', mode: 0o755 },
        { path: 'rel/private.txt', content: 'mine', mode: 0o600 },
      ]);
      const got = await ctx.sb.getFiles([`${WORKSPACE_DIR}/rel/plain.txt`]);
      expect(got.get(`${WORKSPACE_DIR}/rel/plain.txt`)?.toString()).toBe('plain');
      expect(await mode('rel/plain.txt')).toBe(0o644);
      expect(await mode('rel/tool.sh')).toBe(0o755);
      expect(await mode('rel/private.txt')).toBe(0o600);
    });

    it('reach outside /workspace: /tmp, and root’s and the checker’s places', async () => {
      await ctx.sb.putFiles([{ path: '/tmp/t.txt', content: 'tmp' }]);
      await ctx.sb.putFiles([{ path: `${HARNESS_DIR}/hidden.py`, content: 'H' }], { owner: 'root' });
      await ctx.sb.putFiles([{ path: `${CHECKER_HOME}/conf`, content: 'C' }], { owner: 'checker' });
      const got = await ctx.sb.getFiles(['/tmp/t.txt', `${HARNESS_DIR}/hidden.py`, `${CHECKER_HOME}/conf`]);
      expect([...got].map(([p, b]) => [p, b.toString()])).toEqual([
        ['/tmp/t.txt', 'tmp'],
        [`${HARNESS_DIR}/hidden.py`, 'H'],
        [`${CHECKER_HOME}/conf`, 'C'],
      ]);
    });
  });

  describe('readFile and writeFile', () => {
    it('round-trip text verbatim, resolving a relative path against the cwd, counting bytes', async () => {
      const bytes = Buffer.byteLength(TEXT);
      const abs = `${ctx.sb.cwd}/notes/text.txt`;
      expect(await ctx.sb.writeFile('notes/text.txt', TEXT)).toEqual({ ok: true, path: abs, bytes });
      expect(await ctx.sb.readFile('notes/text.txt')).toEqual({
        ok: true,
        path: abs,
        content: TEXT,
        totalBytes: bytes,
        offset: 0,
        truncated: false,
      });
      expect((await ctx.sb.getFiles([abs])).get(abs)?.toString('utf8')).toBe(TEXT);
    });

    it('read what the harness put, and write where getFiles and snapshots see it', async () => {
      await ctx.sb.putFiles([{ path: 'given.txt', content: 'given' }]);
      expect(await ctx.sb.readFile(`${WORKSPACE_DIR}/given.txt`)).toMatchObject({
        ok: true,
        content: 'given',
      });
      await ctx.sb.writeFile(`${WORKSPACE_DIR}/a/b/c.txt`, 'made');
      const got = await ctx.sb.getFiles([`${WORKSPACE_DIR}/a/b/c.txt`]);
      expect(got.get(`${WORKSPACE_DIR}/a/b/c.txt`)?.toString()).toBe('made');
      expect((await ctx.sb.snapshot()).get('a/b/c.txt')).toMatchObject({ kind: 'file', size: 4 });
    });

    it('read a byte range, and say whether more follows', async () => {
      await ctx.sb.writeFile('abc.txt', 'abcdefghij');
      const part = await ctx.sb.readFile('abc.txt', { offset: 2, limit: 3 });
      expect(part).toMatchObject({ ok: true, content: 'cde', offset: 2, totalBytes: 10, truncated: true });
      const rest = await ctx.sb.readFile('abc.txt', { offset: 8 });
      expect(rest).toMatchObject({ ok: true, content: 'ij', offset: 8, truncated: false });
      const past = await ctx.sb.readFile('abc.txt', { offset: 20 });
      expect(past).toMatchObject({ ok: true, content: '', truncated: false });
    });

    it('refuse a missing file and a directory, naming the absolute path', async () => {
      await ctx.sb.putFiles([{ path: 'dir/inside.txt', content: 'x' }]);
      for (const path of ['missing.txt', 'dir']) {
        const r = await ctx.sb.readFile(path);
        expect(r, path).toMatchObject({ ok: false, path: `${WORKSPACE_DIR}/${path}` });
        expect(!r.ok && r.error.length, path).toBeGreaterThan(0);
      }
    });

    it('keep the mode of a file written over', async () => {
      await ctx.sb.putFiles([{ path: 'run.sh', content: '#!/bin/sh\necho old\n', mode: 0o755 }]);
      expect(await ctx.sb.writeFile('run.sh', '#!/bin/sh\necho new\n')).toMatchObject({ ok: true });
      expect(await mode('run.sh')).toBe(0o755);
      expect(await ctx.sb.readFile('run.sh')).toMatchObject({ content: '#!/bin/sh\necho new\n' });
    });
  });

  describe.skipIf(!can.shell)('readFile and writeFile (needs a shell)', () => {
    it('resolve a relative path against the cwd the shell moved to', async () => {
      await ctx.sb.runCommand('mkdir -p sub && cd sub', 10_000);
      expect(await ctx.sb.writeFile('note.txt', 'here')).toMatchObject({
        path: `${WORKSPACE_DIR}/sub/note.txt`,
      });
      expect(await ctx.sb.readFile('note.txt')).toMatchObject({ ok: true, content: 'here' });
      expect((await ctx.sb.runCommand('cat note.txt', 10_000)).stdout).toBe('here');
    });

    it('replace a symlink at the path, never writing through it, and refuse a FIFO unopened', async () => {
      await ctx.sb.runCommand('ln -s /tmp/target.txt link.txt && mkfifo fifo', 10_000);
      expect(await ctx.sb.writeFile('link.txt', 'via link')).toMatchObject({ ok: true });
      expect((await ctx.sb.snapshot()).get('link.txt')).toMatchObject({ kind: 'file', size: 8 });
      expect((await ctx.sb.getFiles(['/tmp/target.txt'])).size).toBe(0);
      expect(await ctx.sb.readFile('fifo')).toMatchObject({ ok: false });
    });
  });

  describe.skipIf(!can.permissions)('permissions (the kernel decides)', () => {
    it('putFiles makes files the agent owns unless the owner is root: the agent’s tools say so', async () => {
      await ctx.sb.putFiles([{ path: 'mine.txt', content: 'a' }]);
      await ctx.sb.putFiles([{ path: `${HARNESS_DIR}/secret.txt`, content: 's' }], { owner: 'root' });
      await ctx.sb.putFiles([{ path: 'locked/given.txt', content: 'root' }], { owner: 'root' });
      expect(await ctx.sb.writeFile('mine.txt', 'b')).toMatchObject({ ok: true });
      expect(await ctx.sb.readFile(`${HARNESS_DIR}/secret.txt`)).toMatchObject({ ok: false });
      expect(await ctx.sb.writeFile('locked/given.txt', 'mine')).toMatchObject({ ok: false });
      expect(await ctx.sb.writeFile('locked/new.txt', 'mine')).toMatchObject({ ok: false });
      expect(await ctx.sb.readFile('locked/given.txt')).toMatchObject({ ok: true, content: 'root' });
    });
  });
}
