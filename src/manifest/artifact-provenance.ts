/**
 * Where a skill's declared artifact came from, when the manifest says which command writes it
 * (`writes` of a required command): the process that wrote its final bytes must descend from a
 * counted run of that command (command-match.ts: the skill's own program, named by its patterns), in
 * the trace, or only move or copy the bytes such a run wrote (a render to `preview.png.tmp` then
 * `mv`, its output copied into place: src/scoring/byte-origin.ts). A file made by hand next to a
 * real run (a script run with `--help` and the file written with write_file, a copy of a file the
 * agent made, a render of other data edited afterwards) is the agent's, not the skill's. The writers are those of the turn whose
 * snapshot last changed the file (src/scoring/ordering.ts writersIn); every one of them must be the
 * skill's, since any of them may have written last. A change no trace explains (an untraced
 * command, a survivor the agent left running) proves nothing.
 */
import { copiedFrom, lastWriterBefore } from '../scoring/byte-origin.js';
import { decisionTurn, type StepRef, writersIn } from '../scoring/ordering.js';
import { workspaceAbsolute } from '../scoring/paths.js';
import type { CheckContext } from '../tasks/types.js';
import { describeGroup } from './command-flags.js';
import { type CommandGroup, groupRuns } from './command-match.js';

type Ctx = Pick<CheckContext, 'calls' | 'changeTurns' | 'declaredWrites'>;

/** null when a run of one of `groups` wrote the file's final content, else why not. */
export function provenanceProblem(ctx: Ctx, relPath: string, groups: readonly CommandGroup[]): string | null {
  const turn = ctx.changeTurns.get(relPath)?.at(-1);
  if (turn === undefined) return `${relPath} was not written during the run`;
  if (decisionTurn(ctx, turn, relPath) !== turn)
    return `${relPath} changed while a process an earlier command left was running: no run of the skill is known to have written it`;
  const writers = writersIn(ctx, turn, relPath);
  if (writers.length === 0) return `no traced process wrote ${relPath}`;
  const fromSkill = runSteps(ctx, groups);
  const by = groups.map(describeGroup).join(' or ');
  for (const w of writers) {
    const call = ctx.calls[w.call];
    if (call === undefined) continue;
    if (call.name === 'write_file')
      return `${relPath} was written with write_file (turn ${call.turn}), not by the skill`;
    if (call.processes === undefined)
      return `${relPath} was written by a command the trace did not follow (turn ${call.turn})`;
    if (!fromRun(ctx, workspaceAbsolute(relPath), w, fromSkill))
      return `${relPath} was last written by \`${writerName(call.processes[w.step]?.argv)}\` (turn ${call.turn}), not by a run of ${by}`;
  }
  return null;
}

/** Copies followed back at most: a temp file moved, then copied, then moved is three. */
const MAX_HOPS = 4;

/**
 * The bytes the step at `w` put at `abs` are a counted run's: it descends from one, or it only moved
 * or copied a file whose last writer before it was one (byte-origin.ts), so an artifact rendered to
 * a temp file and moved into place, or copied from the run's own output, is the run's.
 */
function fromRun(
  ctx: Ctx,
  abs: string,
  w: StepRef,
  fromSkill: ReadonlyMap<number, ReadonlySet<number>>,
): boolean {
  let path = abs;
  let at = w;
  for (let hop = 0; hop <= MAX_HOPS; hop++) {
    const processes = ctx.calls[at.call]?.processes;
    if (processes === undefined) return false;
    if (descendsFrom(processes, at.step, fromSkill.get(at.call) ?? new Set())) return true;
    const p = processes[at.step];
    const source = p === undefined ? null : copiedFrom(p, path);
    if (source === null) return false;
    const prior = lastWriterBefore(ctx, source, at);
    if (prior === null) return false;
    path = source;
    at = prior;
  }
  return false;
}

/** Per call, the steps (processes) of the groups' counted runs. */
function runSteps(
  ctx: Pick<CheckContext, 'calls' | 'declaredWrites'>,
  groups: readonly CommandGroup[],
): Map<number, Set<number>> {
  const out = new Map<number, Set<number>>();
  for (const run of groups.flatMap((g) => groupRuns(ctx, g).runs)) {
    const steps = out.get(run.at.call) ?? new Set<number>();
    steps.add(run.at.step);
    out.set(run.at.call, steps);
  }
  return out;
}

/** The process at `step`, or one of its recorded ancestors, is one of `roots`. */
function descendsFrom(
  processes: readonly { pid: number; parent_pid: number | null }[],
  step: number,
  roots: ReadonlySet<number>,
): boolean {
  const stepOf = new Map(processes.map((p, i) => [p.pid, i]));
  let at: number | undefined = step;
  for (let hops = 0; at !== undefined && hops <= processes.length; hops++) {
    if (roots.has(at)) return true;
    const parent: number | null | undefined = processes[at]?.parent_pid;
    at = parent === null || parent === undefined ? undefined : stepOf.get(parent);
  }
  return false;
}

function writerName(argv: readonly string[] | null | undefined): string {
  return (argv ?? ['?']).join(' ').slice(0, 80);
}
