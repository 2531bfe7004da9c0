/**
 * What a skill's counted run made its artifact from, when the manifest names the command's inputs
 * (`reads` of a required command): its process tree must have read each input as this trial holds
 * it, and no data the agent made in their stead. A second data file beside the real one, an option
 * given twice so the later copy wins, data piped in from a file of the agent's: the script ran, but
 * on other data, and what it wrote is not this skill's result for this trial's inputs.
 *
 * A copy of an input the agent made before the run (`cp skill/data/sales.csv /tmp/in.csv`, then a
 * run on /tmp/in.csv) holds the input's bytes and counts as reading it: the trail is followed back
 * through renames and copy programs (src/scoring/byte-origin.ts). A file the agent wrote any other
 * way (write_file, an editor, `sed`, a script of its own) that the run read is a stand-in for the
 * inputs unless it is one of them or an artifact of a required command (whose own provenance
 * artifact-provenance.ts follows). Code the run executed or imported is judged by stand-ins.ts,
 * so only data counts here: files that are no program, module or config.
 */
import type { ProcessLog, ToolCallLog } from '../results/trial.js';
import { copiedFrom, lastWriterBefore } from '../scoring/byte-origin.js';
import type { StepRef } from '../scoring/ordering.js';
import { resolvePath, workspaceAbsolute } from '../scoring/paths.js';
import { processTree } from '../scoring/process-tree.js';
import { CODE } from '../scoring/stand-ins.js';
import type { CheckContext } from '../tasks/types.js';
import type { CommandGroup } from './command-match.js';

type Ctx = Pick<CheckContext, 'calls'>;

/** Copies followed back at most: a copy of a copy of the input is two. */
const MAX_HOPS = 4;

/**
 * null when the run at `run` (a counted run of `group`) read each of the group's declared inputs
 * and nothing the agent wrote in their stead; else why not. `artifacts`: every required command's
 * declared artifacts (workspace-relative), which a run may read as inputs of its own.
 */
export function inputsProblem(
  ctx: Ctx,
  run: StepRef,
  relPath: string,
  group: CommandGroup,
  artifacts: ReadonlySet<string>,
): string | null {
  const reads = group.reads ?? [];
  if (reads.length === 0) return null;
  const processes = ctx.calls[run.call]?.processes ?? [];
  const tree = processTree(processes, run.step);
  const own = new Set(tree.map((p) => processes.indexOf(p)));
  const read = new Set(
    tree.flatMap((p) => [...p.reads, ...(p.stdin_file === undefined ? [] : [p.stdin_file])]),
  );
  const inputs = new Map(reads.map((r) => [workspaceAbsolute(r), r]));
  const seen = new Set<string>();
  const made = madeByAgent(ctx, run, own);
  for (const path of [...read].sort()) {
    if (inputs.has(path)) {
      seen.add(path);
      continue;
    }
    const source = copyOfInput(ctx, path, run, inputs);
    if (source !== null) {
      seen.add(source);
      continue;
    }
    const rel = path.startsWith('/workspace/') ? path.slice('/workspace/'.length) : null;
    if (
      (rel !== null && artifacts.has(rel)) ||
      CODE.test(path) ||
      path.includes('/__pycache__/') ||
      !made.has(path)
    )
      continue;
    return `${relPath} was made by a run of cmd:${group.id} that read ${rel ?? path}, data the agent wrote, not only its inputs (${reads.join(', ')})`;
  }
  const unread = reads.filter((r) => !seen.has(workspaceAbsolute(r)));
  if (unread.length > 0)
    return `${relPath} was made by a run of cmd:${group.id} that never read ${unread.join(', ')}`;
  return null;
}

/**
 * The declared input whose bytes `path` held when the run read it, by renames and copies made
 * before the run; null when its bytes are anyone else's.
 */
function copyOfInput(
  ctx: Ctx,
  path: string,
  run: StepRef,
  inputs: ReadonlyMap<string, string>,
): string | null {
  let at = run;
  let file = path;
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const writer = lastWriterBefore(ctx, file, at);
    if (writer === null) return null;
    const p = ctx.calls[writer.call]?.processes?.[writer.step];
    const source = p === undefined ? null : copiedFrom(p, file);
    if (source === null) return null;
    if (inputs.has(source)) return source;
    file = source;
    at = writer;
  }
  return null;
}

/** Files the agent wrote before the run, outside the run's own process tree (`own`: its steps). */
function madeByAgent(ctx: Ctx, run: StepRef, own: ReadonlySet<number>): Set<string> {
  const out = new Set<string>();
  ctx.calls.forEach((log, call) => {
    if (call > run.call) return;
    for (const [step, path] of writesOf(log)) {
      if (call === run.call && (own.has(step) || step > run.step)) continue;
      out.add(path);
    }
  });
  return out;
}

function writesOf(log: ToolCallLog): [number, string][] {
  if (log.name === 'write_file') {
    const path = log.arguments?.path;
    return typeof path === 'string' ? [[0, resolvePath(log.cwd, path)]] : [];
  }
  return (log.processes ?? []).flatMap((p: ProcessLog, step) =>
    [...p.writes, ...p.renamed_to].map((path): [number, string] => [step, path]),
  );
}
