/**
 * Where a file's bytes came from, followed back through the copies that keep them as they are: a
 * rename (`mv out.tmp out.png`) moves the very file, and a copy program given one file (`cp`,
 * `cat a > b`, `install`, `dd`) writes what it read. So an artifact that a genuine run wrote to a temp
 * file and the agent then moved or copied into place holds the run's bytes (docs/verdicts.md,
 * "Artifacts by content provenance"). Anything else that wrote the file — an editor, `sed`, a
 * script, `cat a b > c`, `write_file` — made bytes of its own, and the trail ends there.
 */
import type { ProcessLog } from '../results/trial.js';
import type { CheckContext } from '../tasks/types.js';
import type { StepRef } from './ordering.js';
import { resolvePath } from './paths.js';

/** Programs that write exactly the bytes of the one file they read. */
const COPIERS = /(^|\/)(cp|cat|install|dd)$/;

/**
 * The file whose bytes the process at this step put at `target` unchanged, or null: the one path
 * it renamed onto it, or the one file a copier read while it wrote it.
 */
export function copiedFrom(p: ProcessLog, target: string): string | null {
  if (p.renamed_to.includes(target))
    return p.renamed_to.length === 1 && p.removed.length === 1 ? (p.removed[0] ?? null) : null;
  if (!p.writes.includes(target) || !COPIERS.test(p.exe ?? '') || p.earlier_runs !== undefined) return null;
  const sources = [...new Set(p.reads.filter((r) => r !== target && r !== '/dev/null'))];
  return sources.length === 1 ? (sources[0] ?? null) : null;
}

/**
 * The last traced step before `at` that wrote `path` (or renamed a file onto it), or null when no
 * step is known to have: none did, or the bytes were the agent's own (`write_file`), or a command
 * the trace did not follow came between and may have.
 */
export function lastWriterBefore(
  ctx: Pick<CheckContext, 'calls'>,
  path: string,
  at: StepRef,
): StepRef | null {
  for (let call = at.call; call >= 0; call--) {
    const log = ctx.calls[call];
    if (log === undefined) continue;
    if (log.name === 'write_file') {
      const written = log.arguments?.path;
      if (typeof written === 'string' && resolvePath(log.cwd, written) === path) return null;
      continue;
    }
    if (log.name !== 'execute_command') continue;
    if (log.processes === undefined) return null;
    const last = call === at.call ? at.step - 1 : log.processes.length - 1;
    for (let step = last; step >= 0; step--) {
      const p = log.processes[step] as ProcessLog;
      if (p.writes.includes(path) || p.renamed_to.includes(path)) return { call, step };
    }
  }
  return null;
}
