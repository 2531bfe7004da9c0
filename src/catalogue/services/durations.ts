/** Compose's durations (`1m30s`, `500ms`, `2s`; a bare number is seconds in a task.toml) in milliseconds, or null. */
const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export function durationMs(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value * 1000 : null;
  if (typeof value !== 'string' || !/^(\d+(\.\d+)?(us|ms|s|m|h))+$/.test(value.trim())) return null;
  let total = 0;
  for (const m of value.trim().matchAll(/(\d+(?:\.\d+)?)(us|ms|s|m|h)/g))
    total += Number(m[1]) * (UNIT_MS[m[2] ?? 's'] ?? 1000);
  return Math.round(total);
}
