/** The peak memory of a process group, read from /proc as a spawned model server's would be. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { groupPeakRssBytes, watchGroupMemory } from '../../src/ladder/group-memory.js';
import { stopGroup } from '../../src/ladder/process-group.js';

const MIB = 1 << 20;

/** A detached shell whose child node process holds `mib` MiB of touched memory, once it says so. */
async function holding(mib: number): Promise<{ pgid: number; exited: Promise<unknown> }> {
  const script = `const b = Buffer.alloc(${mib} * 1024 * 1024, 1); console.log('ready', b.length); setInterval(() => {}, 1000);`;
  const child = spawn('bash', ['-c', `${JSON.stringify(process.execPath)} -e "${script}"; true`], {
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const exited = once(child, 'exit');
  await once(child.stdout, 'data');
  if (child.pid === undefined) throw new Error('spawn failed');
  return { pgid: child.pid, exited };
}

describe.sequential('group memory', () => {
  it('sums the peak resident memory of the group, and the watch keeps it after the group is gone', async () => {
    const { pgid, exited } = await holding(96);
    const watch = watchGroupMemory(pgid, 10_000);
    try {
      expect(groupPeakRssBytes(pgid)).toBeGreaterThan(96 * MIB);
      expect(watch.peakBytes()).toBeGreaterThan(96 * MIB);
      await stopGroup(pgid, 2000);
      await exited;
      expect(groupPeakRssBytes(pgid)).toBeNull();
      expect(watch.peakBytes()).toBeGreaterThan(96 * MIB);
    } finally {
      watch.stop();
    }
  });
});
