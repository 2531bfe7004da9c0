/**
 * The `--status-file` of a run (written by src/run/status-file.ts): where the run is, for tools that
 * watch it from outside (the dashboard's run panel). Read back with parseRunStatus, which checks the
 * fields a reader shows: the file is another process's, and a stale or foreign one must not break it.
 */

/** A trial in flight (1-based numbers, as the CLI prints them). */
export interface RunningTrial {
  /** Position of its task in the run, and the number of tasks. */
  taskNo: number;
  tasks: number;
  taskId: string;
  /** Trial number, of k. */
  trial: number;
  k: number;
  /** The turn it is on (1 until the first reply), of maxTurns. */
  turn: number;
  maxTurns: number;
}

/** What the file holds; `line` is the CLI's own status line, the rest its parts. */
export interface RunStatusFile {
  line: string;
  running: RunningTrial[];
  done: number;
  total: number;
  elapsed_ms: number;
  /** null: not known yet. */
  left_ms: number | null;
  /** The run has ended (its last write). */
  finished: boolean;
}

export function parseRunStatus(text: string): RunStatusFile | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const b = v as Record<string, unknown>;
  const num = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
  if (typeof b.line !== 'string' || !num(b.done) || !num(b.total) || !num(b.elapsed_ms)) return null;
  if (!(b.left_ms === null || num(b.left_ms)) || typeof b.finished !== 'boolean' || !Array.isArray(b.running))
    return null;
  return v as RunStatusFile;
}
