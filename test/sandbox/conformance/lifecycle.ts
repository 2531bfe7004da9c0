/** A sandbox's life: its id and cwd, killing processes, reset between trials, spawn, dispose. */
import { describe, expect, it } from 'vitest';
import { CHECKER_HOME, WORKSPACE_DIR } from '../../../src/sandbox/types.js';
import { alive, asRoot, type Conformance } from './context.js';

export function lifecycleCases(ctx: Conformance): void {
  const { can } = ctx;

  describe('identity', () => {
    it('has an id, and its shell starts in /workspace', () => {
      expect(ctx.sb.id).toEqual(expect.any(String));
      expect(ctx.sb.id.length).toBeGreaterThan(0);
      expect(ctx.cwdAtOpen).toBe(WORKSPACE_DIR);
    });

    it(`has spawn exactly when it says it can (${can.spawn ? 'it can' : 'it cannot'})`, () => {
      expect(typeof ctx.sb.spawn === 'function').toBe(can.spawn);
    });
  });

  describe('reset', () => {
    it('wipes /workspace, /tmp, the checker’s home and the staged copies', async () => {
      await ctx.sb.putFiles([
        { path: 'left/over.txt', content: 'from the last trial' },
        { path: '/tmp/t.txt', content: 'tmp' },
      ]);
      await ctx.sb.writeFile('written.txt', 'by the agent');
      await ctx.sb.putFiles([{ path: `${CHECKER_HOME}/conf`, content: 'c' }], { owner: 'checker' });
      const staged = await ctx.sb.stageForChecks();
      const paths = [
        `${WORKSPACE_DIR}/left/over.txt`,
        `${WORKSPACE_DIR}/written.txt`,
        '/tmp/t.txt',
        `${CHECKER_HOME}/conf`,
        `${staged}/written.txt`,
      ];
      expect((await ctx.sb.getFiles(paths)).size).toBe(paths.length);
      await ctx.sb.reset();
      expect((await ctx.sb.getFiles(paths)).size).toBe(0);
      expect((await ctx.sb.snapshot()).size).toBe(0);
      expect((await ctx.sb.workspaceChanges()).paths).toEqual([]);
      expect(await ctx.sb.readFile('written.txt')).toMatchObject({ ok: false });
    });

    it('is safe to repeat', async () => {
      await ctx.sb.reset();
      await ctx.sb.reset();
      expect(ctx.sb.cwd).toBe(WORKSPACE_DIR);
    });
  });

  describe.skipIf(!can.shell)('processes (needs a shell)', () => {
    it('killAgentProcesses kills every process of the agent, background and detached ones included', async () => {
      await ctx.sb.runCommand('sleep 3021 & setsid sleep 3022 & nohup sleep 3023 >/dev/null 2>&1 &', 10_000);
      expect(await alive(ctx.sb, 'sleep 302[123]')).toBe(true);
      await ctx.sb.killAgentProcesses();
      expect(await alive(ctx.sb, 'sleep 302[123]')).toBe(false);
      expect((await ctx.sb.runCommand('echo still here', 10_000)).stdout).toBe('still here\n');
    });

    it('killAllProcesses kills every process whoever started it, and the sandbox serves on', async () => {
      await ctx.sb.runCommand('setsid nohup sleep 3024 >/dev/null 2>&1 &', 10_000);
      await asRoot(ctx.sb, 'setsid nohup sleep 3025 >/dev/null 2>&1 &');
      await ctx.sb.exec(['bash', '-c', 'setsid nohup sleep 3026 >/dev/null 2>&1 &'], {
        user: 'checker',
        cwd: '/',
      });
      expect(await alive(ctx.sb, 'sleep 302[456]')).toBe(true);
      await ctx.sb.killAllProcesses();
      expect(await alive(ctx.sb, 'sleep 302[456]')).toBe(false);
      expect((await ctx.sb.runCommand('echo still here', 10_000)).stdout).toBe('still here\n');
    });

    it('reset kills every process and brings the shell back to /workspace', async () => {
      await ctx.sb.runCommand('setsid nohup sleep 3027 >/dev/null 2>&1 & cd /tmp', 10_000);
      await asRoot(ctx.sb, 'setsid nohup sleep 3028 >/dev/null 2>&1 &');
      expect(ctx.sb.cwd).toBe('/tmp');
      await ctx.sb.reset();
      expect(ctx.sb.cwd).toBe(WORKSPACE_DIR);
      expect(await alive(ctx.sb, 'sleep 302[78]')).toBe(false);
      expect((await ctx.sb.runCommand('pwd', 10_000)).stdout).toBe(`${WORKSPACE_DIR}\n`);
    });
  });

  describe.skipIf(!can.spawn)('spawn (needs spawn)', () => {
    it('keeps a process’s stdin and stdout open until it is ended', async () => {
      const p = await ctx.sb.spawn?.(['cat'], { user: 'agent', cwd: WORKSPACE_DIR });
      if (p === undefined) throw new Error('no spawn');
      const first = new Promise<string>((resolve) =>
        p.stdout.once('data', (d: Buffer) => resolve(d.toString())),
      );
      await p.write('ping\n');
      expect(await first).toBe('ping\n');
      await p.end();
      await p.exited;
      expect(p.stderrTail()).toBe('');
    });
  });

  describe('dispose', () => {
    it('is safe to call twice (the last case: the suite’s sandbox is gone after it)', async () => {
      await ctx.sb.dispose();
      await ctx.sb.dispose();
    });
  });
}
