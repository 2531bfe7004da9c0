/** Looks at the workspace: snapshot, workspaceChanges, and the copies stageForChecks makes. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CHECKS_DIR, WORKSPACE_DIR } from '../../../src/sandbox/types.js';
import { ALL_BYTES, asRoot, type Conformance } from './context.js';

const sha = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');
const anyDir = { kind: 'dir', mode: expect.any(Number) };

export function workspaceCases(ctx: Conformance): void {
  const { can } = ctx;
  const changes = async (): Promise<string[]> => {
    const c = await ctx.sb.workspaceChanges();
    expect(c.snapshotMs).toBeGreaterThanOrEqual(0);
    return c.paths;
  };

  describe('snapshot', () => {
    it('lists every file (hash, size, mode) and directory under /workspace, by relative path', async () => {
      await ctx.sb.putFiles([
        { path: 'a.txt', content: 'alpha' },
        { path: 'bin/tool.sh', content: '#!/bin/sh\n', mode: 0o755 },
        { path: 'data/deep/all.bin', content: ALL_BYTES, mode: 0o600 },
        { path: '/tmp/elsewhere.txt', content: 'not in the workspace' },
      ]);
      expect(Object.fromEntries(await ctx.sb.snapshot())).toEqual({
        'a.txt': { kind: 'file', sha256: sha('alpha'), size: 5, mode: 0o644 },
        bin: anyDir,
        'bin/tool.sh': { kind: 'file', sha256: sha('#!/bin/sh\n'), size: 10, mode: 0o755 },
        data: anyDir,
        'data/deep': anyDir,
        'data/deep/all.bin': { kind: 'file', sha256: sha(ALL_BYTES), size: 256, mode: 0o600 },
      });
    });

    it('is empty after a reset', async () => {
      expect((await ctx.sb.snapshot()).size).toBe(0);
    });
  });

  describe('workspaceChanges', () => {
    it('reports exactly the paths created or changed (content, mode) since the last look, sorted', async () => {
      await ctx.sb.putFiles(['a.txt', 'm.sh', 'same.txt'].map((path) => ({ path, content: path })));
      await ctx.sb.snapshot();
      await ctx.sb.writeFile('a.txt', 'changed');
      await ctx.sb.putFiles([
        { path: 'm.sh', content: 'm.sh', mode: 0o755 },
        { path: 'same.txt', content: 'same.txt' },
        { path: 'n/new.txt', content: 'new' },
        { path: 'Z.txt', content: 'new' },
        { path: '/tmp/outside.txt', content: 'not in the workspace' },
      ]);
      // Sorted by code unit: upper case first. same.txt was written again as it was: no change.
      expect(await changes()).toEqual(['Z.txt', 'a.txt', 'm.sh', 'n', 'n/new.txt']);
    });

    it('starts the next look: a second call with nothing done in between reports nothing', async () => {
      await ctx.sb.putFiles([
        { path: 'Z.txt', content: 'z' },
        { path: 'a.txt', content: 'a' },
      ]);
      expect(await changes()).toEqual(['Z.txt', 'a.txt']);
      expect(await changes()).toEqual([]);
      await ctx.sb.writeFile('a.txt', 'again');
      await ctx.sb.snapshot();
      // The snapshot was a look too.
      expect(await changes()).toEqual([]);
    });
  });

  describe.skipIf(!can.shell)('snapshot and workspaceChanges (needs a shell)', () => {
    it('records symlinks as links, never followed, and directories with their mode', async () => {
      await ctx.sb.runCommand(
        'ln -s /etc/passwd pw && ln -s a.txt alias && mkdir closed && chmod 700 closed',
        10_000,
      );
      expect(Object.fromEntries(await ctx.sb.snapshot())).toEqual({
        alias: { kind: 'symlink', target: 'a.txt' },
        closed: { kind: 'dir', mode: 0o700 },
        pw: { kind: 'symlink', target: '/etc/passwd' },
      });
    });

    it('reports removals, renames, retargeted links and changes of kind that commands made', async () => {
      await ctx.sb.putFiles(
        ['a.txt', 'b.txt', 'c.txt', 'kind', 'keep.txt'].map((path) => ({ path, content: path })),
      );
      await ctx.sb.runCommand('ln -s a.txt link', 10_000);
      await ctx.sb.snapshot();
      await ctx.sb.runCommand(
        'rm b.txt; mv c.txt c2.txt; ln -sfn keep.txt link; rm kind; mkdir kind; chmod 600 a.txt',
        10_000,
      );
      expect(await changes()).toEqual(['a.txt', 'b.txt', 'c.txt', 'c2.txt', 'kind', 'link']);
    });

    it('sees what an exec changed, not only what the agent’s commands did', async () => {
      await ctx.sb.snapshot();
      await ctx.sb.exec(['bash', '-c', 'echo x > by-exec.txt']);
      expect(await changes()).toEqual(['by-exec.txt']);
    });
  });

  describe('stageForChecks', () => {
    it('copies the workspace to a fresh directory under CHECKS_DIR, a copy later changes leave alone', async () => {
      await ctx.sb.putFiles([
        { path: 'main.py', content: 'print(1)\n' },
        { path: 'pkg/all.bin', content: ALL_BYTES },
      ]);
      const first = await ctx.sb.stageForChecks();
      expect(first.startsWith(`${CHECKS_DIR}/`)).toBe(true);
      await ctx.sb.writeFile('main.py', 'print(2)\n');
      const second = await ctx.sb.stageForChecks();
      expect(second).not.toBe(first);
      const got = await ctx.sb.getFiles([
        `${first}/main.py`,
        `${first}/pkg/all.bin`,
        `${second}/main.py`,
        `${WORKSPACE_DIR}/main.py`,
      ]);
      expect(got.get(`${first}/main.py`)?.toString()).toBe('print(1)\n');
      expect(got.get(`${first}/pkg/all.bin`)?.equals(ALL_BYTES)).toBe(true);
      expect(got.get(`${second}/main.py`)?.toString()).toBe('print(2)\n');
      // Staging is no change to the workspace.
      expect(await changes()).toEqual(['main.py', 'pkg', 'pkg/all.bin']);
    });

    it.skipIf(!can.shell)(
      'owned by root, dirs 0755, files 0644 or 0755 if the owner could run them, links kept (needs a shell)',
      async () => {
        await ctx.sb.putFiles([
          { path: 'secret.txt', content: 's', mode: 0o600 },
          { path: 'run.sh', content: '#!/bin/sh\n', mode: 0o700 },
          { path: 'pkg/open.txt', content: 'o', mode: 0o666 },
        ]);
        await ctx.sb.runCommand('chmod 700 pkg && ln -s secret.txt link', 10_000);
        const staged = await ctx.sb.stageForChecks();
        const r = await asRoot(
          ctx.sb,
          `cd ${staged} && stat -c '%n %F %U %a' pkg pkg/open.txt run.sh secret.txt link`,
        );
        expect(r.stdout).toBe(
          [
            'pkg directory root 755',
            'pkg/open.txt regular file root 644',
            'run.sh regular file root 755',
            'secret.txt regular file root 644',
            'link symbolic link root 777',
            '',
          ].join('\n'),
        );
      },
    );

    it.skipIf(!can.shell || !can.permissions)(
      'the checker can read and run the copy but not change it, nor reach /workspace (needs a shell and permissions)',
      async () => {
        await ctx.sb.putFiles([{ path: 'run.sh', content: '#!/bin/sh\necho ran\n', mode: 0o755 }]);
        const staged = await ctx.sb.stageForChecks();
        const checker = (script: string) =>
          ctx.sb.exec(['bash', '-c', script], { user: 'checker', cwd: staged });
        expect(await checker('./run.sh')).toMatchObject({ exitCode: 0, stdout: 'ran\n' });
        expect((await checker('echo x >> run.sh')).exitCode).not.toBe(0);
        expect((await checker(`ls ${WORKSPACE_DIR}`)).exitCode).not.toBe(0);
      },
    );
  });
}
