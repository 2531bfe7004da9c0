/**
 * A spawned server and everything it starts share one process group (spawned detached), so stopping
 * the group stops wrapper scripts and their children too, not just the shell we spawned.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export type StopOutcome = 'terminated' | 'killed' | 'lingering';

/** Sends a signal to every process of the group; a group already gone is not an error. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch (err) {
    if (errno(err) !== 'ESRCH') throw err;
  }
}

/**
 * Whether any process of the group still runs. On Linux, zombies do not count: where PID 1 does not
 * reap orphans (many containers), a dead grandchild stays a zombie and would look alive forever.
 */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (err) {
    if (errno(err) === 'ESRCH') return false;
    if (errno(err) !== 'EPERM') throw err;
  }
  return process.platform === 'linux' ? hasLiveMember(pgid) : true;
}

/** SIGTERM to the group, SIGKILL after `graceMs` if anything is left; resolves when the group is gone. */
export async function stopGroup(pgid: number, graceMs: number): Promise<StopOutcome> {
  signalGroup(pgid, 'SIGTERM');
  if (await waitGone(pgid, graceMs)) return 'terminated';
  signalGroup(pgid, 'SIGKILL');
  // Only a process stuck in the kernel (uninterruptible I/O) outlives SIGKILL for long.
  return (await waitGone(pgid, 5000)) ? 'killed' : 'lingering';
}

async function waitGone(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (groupAlive(pgid)) {
    if (Date.now() >= deadline) return false;
    await sleep(50);
  }
  return true;
}

function hasLiveMember(pgid: number): boolean {
  // No /proc to look into: kill(0) said the group exists.
  return (groupMembers(pgid) ?? [0]).length > 0;
}

/** The pids of the group's live (not zombie) processes; null where there is no /proc to read. */
export function groupMembers(pgid: number): number[] | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  return pids
    .filter((pid) => {
      let stat: string;
      try {
        stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch {
        return false; // Exited while we looked.
      }
      // `pid (comm) state ppid pgrp …`: comm may hold spaces and parentheses, so split after the last `)`.
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(pgrp) === pgid && state !== 'Z' && state !== 'X';
    })
    .map(Number);
}

function errno(err: unknown): string | null {
  return err instanceof Error && 'code' in err && typeof err.code === 'string' ? err.code : null;
}
