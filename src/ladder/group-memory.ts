/**
 * The memory a spawned model server took: the peak resident set (VmHWM) of each process of its
 * group, summed, sampled while the rung runs. Each process keeps its own peak, so a sample misses
 * nothing of a live process; one that exited between samples keeps the peak seen before.
 */
import { readFileSync } from 'node:fs';
import { groupMembers } from './process-group.js';

/** The sum of the group's members' VmHWM in bytes; null when nothing could be read (no /proc). */
export function groupPeakRssBytes(pgid: number): number | null {
  const peaks = (groupMembers(pgid) ?? []).map(peakRssBytes).filter((b) => b !== null);
  return peaks.length === 0 ? null : peaks.reduce((a, b) => a + b, 0);
}

export interface MemoryWatch {
  /** The highest sum sampled so far (a last sample is taken now), or null when none could be read. */
  peakBytes(): number | null;
  stop(): void;
}

/** Samples the group every `everyMs` until stopped. */
export function watchGroupMemory(pgid: number, everyMs = 500): MemoryWatch {
  let peak: number | null = null;
  const sample = (): void => {
    const now = groupPeakRssBytes(pgid);
    if (now !== null && (peak === null || now > peak)) peak = now;
  };
  sample();
  const timer = setInterval(sample, everyMs);
  timer.unref();
  return {
    peakBytes: () => {
      sample();
      return peak;
    },
    stop: () => clearInterval(timer),
  };
}

/** `VmHWM:   123456 kB` of /proc/PID/status; null when the process is gone or has none (a kernel thread). */
export function peakRssBytes(pid: number | 'self'): number | null {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const kb = /^VmHWM:\s+(\d+)\s+kB$/m.exec(status)?.[1];
  return kb === undefined ? null : Number(kb) * 1024;
}
