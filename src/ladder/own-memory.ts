/**
 * The memory an in-process model (`gguf:PATH`) took: this process's own peak resident set during the
 * rung. The kernel's peak (VmHWM) only ever grows, so a second rung would see the first's peak; it is
 * reset at the rung's start (writing 5 to /proc/self/clear_refs, Linux 4.0+), and read at its end.
 * This is the whole agent-bench process: the weights, the KV cache and node-llama-cpp's buffers, plus
 * the harness's own memory (a little over a hundred MiB) — not node-llama-cpp's own figure for the
 * model, which leaves out what llama.cpp allocates beside it, as a server's RSS does not.
 */
import { writeFileSync } from 'node:fs';
import { peakRssBytes } from './group-memory.js';

export interface OwnPeak {
  /** The peak since the reset; null when it could not be reset (no /proc, no permission) or read. */
  peakBytes(): number | null;
}

export function watchOwnPeak(reset: () => void = resetOwnPeak): OwnPeak {
  try {
    reset();
  } catch {
    // Without a reset the peak would be the whole process's life's: unknown, not a wrong number.
    return { peakBytes: () => null };
  }
  return { peakBytes: () => peakRssBytes('self') };
}

function resetOwnPeak(): void {
  writeFileSync('/proc/self/clear_refs', '5');
}
