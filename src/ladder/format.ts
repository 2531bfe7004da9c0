/** How sizes read in the ladder's table and verdict. */
import { formatBytes } from '../discovery/models-table.js';
import type { WeightEstimate } from '../discovery/order.js';

/** Billions as people write them: `0.5B`, `3B`, `7.6B`, `35B`; under a billion in millions (`135M`). */
export function formatBillions(b: number): string {
  if (b < 1) return `${Math.round(b * 1000)}M`;
  return `${b >= 10 ? Math.round(b) : Math.round(b * 10) / 10}B`;
}

/** `27.1 GiB`, `60 MiB`; an estimate (parameters × bits per weight) gets `~`. */
export function formatSize(size: WeightEstimate): string {
  return `${size.source === 'estimate' ? '~' : ''}${formatBytes(size.bytes)}`;
}

/** `12.3s`, `4m 05s`, `1h 02m`. */
export function formatDuration(sec: number): string {
  if (sec < 60) return `${sec.toFixed(1)}s`;
  const minutes = Math.floor(sec / 60);
  if (minutes < 60) return `${minutes}m ${String(Math.round(sec % 60)).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}
