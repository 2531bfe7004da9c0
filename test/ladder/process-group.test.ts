import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { groupAlive, stopGroup } from '../../src/ladder/process-group.js';

/** A detached shell with two background children: a process group of three. */
async function group(script: string): Promise<{ pgid: number; exited: Promise<unknown> }> {
  const child = spawn('bash', ['-c', script], { detached: true, stdio: 'ignore' });
  const exited = once(child, 'exit');
  await new Promise((resolve) => setTimeout(resolve, 200)); // let the shell start its children
  if (child.pid === undefined) throw new Error('spawn failed');
  return { pgid: child.pid, exited };
}

describe.sequential('process groups', () => {
  it('SIGTERM stops the whole group: the shell and its children', async () => {
    const { pgid, exited } = await group('sleep 300 & sleep 300 & wait');
    expect(groupAlive(pgid)).toBe(true);
    expect(await stopGroup(pgid, 2000)).toBe('terminated');
    expect(groupAlive(pgid)).toBe(false);
    await exited;
    expect(() => process.kill(pgid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
  });

  it('a group that ignores SIGTERM gets SIGKILL after the grace period', async () => {
    const { pgid, exited } = await group('trap "" TERM; sleep 300 & sleep 300 & wait');
    const started = Date.now();
    expect(await stopGroup(pgid, 300)).toBe('killed');
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(groupAlive(pgid)).toBe(false);
    await exited;
    expect(() => process.kill(pgid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
  });

  it('stopping a group that is already gone is fine', async () => {
    const { pgid, exited } = await group('exit 0');
    await exited;
    expect(groupAlive(pgid)).toBe(false);
    expect(await stopGroup(pgid, 100)).toBe('terminated');
  });
});
