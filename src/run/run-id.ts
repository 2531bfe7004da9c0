/** A run id: sortable by start time, unique enough for one results folder. */
export function newRunId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('.', '');
  return `${stamp}-${Math.random().toString(16).slice(2, 6)}`;
}
