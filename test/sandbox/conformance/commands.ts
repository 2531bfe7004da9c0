/** The harness's exec and the agent's runCommand: results, cwd, env, users, timeouts, output caps. */
import { describe, expect, it } from 'vitest';
import { CHECKER_HOME, WORKSPACE_DIR } from '../../../src/sandbox/types.js';
import { alive, type Conformance } from './context.js';

/** `seq 1 20000`'s output: every part of it is distinct, so a cut shows where it was made. */
const SEQ = `${Array.from({ length: 20_000 }, (_, i) => i + 1).join('\n')}\n`;

export function commandCases(ctx: Conformance): void {
  const { can } = ctx;

  describe('exec and runCommand results', () => {
    it('an exec that ran to its end: an exit code, nothing cut, no timeout, no trace unless asked', async () => {
      const r = await ctx.sb.exec(['true']);
      expect(r).toMatchObject({ exitCode: 0, timedOut: false, stdoutCutBytes: 0, stderrCutBytes: 0 });
      expect(r.elapsedMs).toBeGreaterThanOrEqual(0);
      expect(r.trace).toBeUndefined();
    });

    it('a command starts in the shell’s cwd and says where it ended', async () => {
      const before = ctx.sb.cwd;
      const r = await ctx.sb.runCommand('true', 10_000);
      expect(r).toMatchObject({ exitCode: 0, timedOut: false, cwd: before, stdoutCutBytes: 0 });
      expect(r.cwdAfter).toBe(ctx.sb.cwd);
      expect(r.elapsedMs).toBeGreaterThanOrEqual(0);
    });
  });

  describe.skipIf(!can.shell)('exec (needs a shell)', () => {
    it('separates stdout from stderr and reports the exit code', async () => {
      const r = await ctx.sb.exec(['bash', '-c', 'echo out; echo err >&2; exit 7']);
      expect(r).toMatchObject({ exitCode: 7, stdout: 'out\n', stderr: 'err\n', timedOut: false });
    });

    it('passes argv verbatim, with no shell, and stdin bytes', async () => {
      const argv = await ctx.sb.exec(['printf', '%s|', 'a b', '$HOME', "'q'", '; exit 3']);
      expect(argv).toMatchObject({ exitCode: 0, stdout: "a b|$HOME|'q'|; exit 3|" });
      const stdin = Buffer.from([0, 1, 2, 255, 10, 0x41]);
      const od = await ctx.sb.exec(['od', '-An', '-tx1'], { stdin });
      expect(od.stdout.trim().split(/\s+/)).toEqual(['00', '01', '02', 'ff', '0a', '41']);
    });

    it('runs in /workspace unless told otherwise, with the environment it is given', async () => {
      expect((await ctx.sb.exec(['pwd'])).stdout).toBe(`${WORKSPACE_DIR}\n`);
      expect((await ctx.sb.exec(['pwd'], { cwd: '/tmp' })).stdout).toBe('/tmp\n');
      const env = await ctx.sb.exec(['bash', '-c', 'echo "$GREETING"'], { env: { GREETING: 'hi there' } });
      expect(env.stdout).toBe('hi there\n');
    });

    it('runs as the agent (uid 1000) unless told otherwise, as root (0) or as the checker (1001)', async () => {
      const uid = async (user?: 'agent' | 'root' | 'checker') =>
        (await ctx.sb.exec(['id', '-u'], user === undefined ? { cwd: '/' } : { user, cwd: '/' })).stdout;
      expect([await uid(), await uid('agent'), await uid('root'), await uid('checker')]).toEqual([
        '1000\n',
        '1000\n',
        '0\n',
        '1001\n',
      ]);
    });

    it('gives the checker CHECKER_HOME for its HOME and TMPDIR', async () => {
      const r = await ctx.sb.exec(['bash', '-c', 'echo "$HOME $TMPDIR"'], { user: 'checker', cwd: '/' });
      expect(r.stdout).toBe(`${CHECKER_HOME} ${CHECKER_HOME}\n`);
    });

    it('stops at its timeout, says so, and kills its process group', async () => {
      const started = Date.now();
      const r = await ctx.sb.exec(['bash', '-c', 'sleep 3011 & sleep 3012'], { timeoutMs: 300 });
      expect(r.timedOut).toBe(true);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(await alive(ctx.sb, 'sleep 301[12]')).toBe(false);
    });

    it('caps each stream at maxOutputBytes, keeping the head and the tail, and counts what it cut', async () => {
      const r = await ctx.sb.exec(['bash', '-c', 'seq 1 20000; seq 1 20000 >&2'], { maxOutputBytes: 1000 });
      for (const [out, cut] of [
        [r.stdout, r.stdoutCutBytes],
        [r.stderr, r.stderrCutBytes],
      ] as const) {
        expect(cut).toBe(SEQ.length - 1000);
        expect(out.startsWith(SEQ.slice(0, 200))).toBe(true);
        expect(out.endsWith(SEQ.slice(-200))).toBe(true);
      }
      const small = await ctx.sb.exec(['bash', '-c', 'seq 1 20000'], { maxOutputBytes: SEQ.length });
      expect(small).toMatchObject({ stdout: SEQ, stdoutCutBytes: 0 });
    });
  });

  describe.skipIf(!can.shell)('runCommand (needs a shell)', () => {
    it('runs a shell line as the agent', async () => {
      const r = await ctx.sb.runCommand('echo $((6 * 7)); id -u; echo oops >&2; exit 4', 10_000);
      expect(r).toMatchObject({ exitCode: 4, stdout: '42\n1000\n', stderr: 'oops\n', timedOut: false });
    });

    it('keeps the shell’s cwd from one command to the next', async () => {
      const cd = await ctx.sb.runCommand('mkdir -p sub/deeper && cd sub', 10_000);
      expect(cd).toMatchObject({ cwd: WORKSPACE_DIR, cwdAfter: `${WORKSPACE_DIR}/sub` });
      expect(ctx.sb.cwd).toBe(`${WORKSPACE_DIR}/sub`);
      const pwd = await ctx.sb.runCommand('pwd; cd deeper', 10_000);
      expect(pwd).toMatchObject({ stdout: `${WORKSPACE_DIR}/sub\n`, cwd: `${WORKSPACE_DIR}/sub` });
      expect(ctx.sb.cwd).toBe(`${WORKSPACE_DIR}/sub/deeper`);
    });

    it('stops at its timeout, says so, and leaves the cwd where it was', async () => {
      await ctx.sb.runCommand('mkdir -p sub && cd sub', 10_000);
      const started = Date.now();
      const r = await ctx.sb.runCommand('cd /tmp && sleep 3013', 300);
      expect(r).toMatchObject({
        timedOut: true,
        cwd: `${WORKSPACE_DIR}/sub`,
        cwdAfter: `${WORKSPACE_DIR}/sub`,
      });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(ctx.sb.cwd).toBe(`${WORKSPACE_DIR}/sub`);
      expect(await alive(ctx.sb, 'sleep 301[3]')).toBe(false);
    });

    it('leaves the cwd where it was when the shell dies before it can say where it is', async () => {
      const r = await ctx.sb.runCommand('cd /tmp && kill -KILL $$', 10_000);
      expect(r).toMatchObject({ timedOut: false, cwdAfter: WORKSPACE_DIR });
      expect(ctx.sb.cwd).toBe(WORKSPACE_DIR);
    });

    it('returns when the shell exits, a background job still running, and names it alive', async () => {
      const r = await ctx.sb.runCommand('sleep 3014 & echo started', 10_000);
      expect(r).toMatchObject({ exitCode: 0, stdout: 'started\n', timedOut: false });
      expect(await alive(ctx.sb, 'sleep 301[4]')).toBe(true);
      // Absent when the sandbox could not look; when it looked, the job is there.
      if (r.aliveAfter !== undefined) expect(r.aliveAfter.length).toBeGreaterThan(0);
    });
  });
}
