/** One call's traced processes as a tree: what a process started, and what the files it read stand for. */

/** The process at `root` and every process it started, directly or not, in start order. */
export function processTree<P extends { pid: number; parent_pid: number | null }>(
  processes: readonly P[],
  root: number,
): P[] {
  const first = processes[root];
  if (first === undefined) return [];
  const pids = new Set([first.pid]);
  const out = [first];
  // Records come in start order, so a child always follows its parent.
  for (const p of processes.slice(root + 1))
    if (p.parent_pid !== null && pids.has(p.parent_pid)) {
      pids.add(p.pid);
      out.push(p);
    }
  return out;
}

/**
 * A module imported from its bytecode cache was run all the same: Python opens
 * __pycache__/name.cpython-311.pyc and only stats name.py, so the cache file stands for its source.
 */
export function sourceOf(path: string): string {
  const m = /^(.*\/)__pycache__\/([^/.]+)\.[^/]+\.pyc$/.exec(path);
  return m === null ? path : `${m[1]}${m[2]}.py`;
}
