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
 * command, a survivor the agent left running) proves nothing. When the command names its inputs
 * (`reads`), the run must have been fed them and nothing of the agent's in their stead
 * (input-provenance.ts).
 */
import { copiedFrom, lastWriterBefore } from '../scoring/byte-origin.js';
import { decisionTurn, type StepRef, writersIn } from '../scoring/ordering.js';
import { workspaceAbsolute } from '../scoring/paths.js';
import { processTree } from '../scoring/process-tree.js';
import type { CheckContext } from '../tasks/types.js';
import { describeGroup } from './command-flags.js';
import { type CommandGroup, groupRuns } from './command-match.js';
import { inputsProblem } from './input-provenance.js';

type Ctx = Pick<CheckContext, 'calls' | 'changeTurns' | 'declaredWrites'>;

/**
 * null when a run of one of `writers` wrote the file's final content, reading only inputs of this
 * trial's own making, else why not: an artifact of another command (`all`, by its `writes`) that the
 * run read must hold that command's bytes too, so a report rendered from a hand-made or stale summary
 * is not the skill's report.
 */
export function provenanceProblem(
  ctx: Ctx,
  relPath: string,
  writers: readonly CommandGroup[],
  all: readonly CommandGroup[] = writers,
): string | null {
  return artifactProblem(ctx, relPath, writers, all, 0);
}

/** Artifacts read through artifacts followed at most (a summary rendered into a report is one). */
const MAX_DEPTH = 3;

function artifactProblem(
  ctx: Ctx,
  relPath: string,
  groups: readonly CommandGroup[],
  all: readonly CommandGroup[],
  depth: number,
): string | null {
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
    const run = fromRun(ctx, workspaceAbsolute(relPath), w, fromSkill);
    if (run === null)
      return `${relPath} was last written by \`${writerName(call.processes[w.step]?.argv)}\` (turn ${call.turn}), not by a run of ${by}`;
    const stale = depth < MAX_DEPTH ? inputProblem(ctx, run, relPath, all, depth) : null;
    if (stale !== null) return stale;
    const other = otherData(ctx, run, relPath, groups, all);
    if (other !== null) return other;
  }
  return null;
}

/**
 * The artifacts of other commands the run at `run` read (its process tree's workspace reads), each
 * as its own command's run had left it when the run read it; the first that was not, and why.
 */
function inputProblem(
  ctx: Ctx,
  run: StepRef,
  relPath: string,
  all: readonly CommandGroup[],
  depth: number,
): string | null {
  const processes = ctx.calls[run.call]?.processes ?? [];
  const read = new Set(processTree(processes, run.step).flatMap((p) => p.reads));
  for (const input of new Set(all.flatMap((g) => g.writes ?? []))) {
    const abs = workspaceAbsolute(input);
    if (input === relPath || !read.has(abs)) continue;
    const producers = all.filter((g) => g.writes?.includes(input));
    const writer = lastWriterBefore(ctx, abs, run);
    const by = producers.map((g) => `cmd:${g.id}`).join(' or ');
    if (writer === null || fromRun(ctx, abs, writer, runSteps(ctx, producers)) === null)
      return `${relPath} was made from ${input}, which no run of ${by} had written when it was read`;
    const deeper = inputProblem(ctx, writer, input, all, depth + 1);
    if (deeper !== null) return deeper;
  }
  return null;
}

/**
 * The run's declared inputs (`reads` of the command it is a run of): read as this trial holds
 * them, and no data of the agent's beside them (input-provenance.ts).
 */
function otherData(
  ctx: Ctx,
  run: StepRef,
  relPath: string,
  groups: readonly CommandGroup[],
  all: readonly CommandGroup[],
): string | null {
  const artifacts = new Set(all.flatMap((g) => g.writes ?? []));
  for (const g of groups) {
    if ((g.reads ?? []).length === 0 || !runSteps(ctx, [g]).get(run.call)?.has(run.step)) continue;
    const problem = inputsProblem(ctx, run, relPath, g, artifacts);
    if (problem !== null) return problem;
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
): StepRef | null {
  let path = abs;
  let at = w;
  for (let hop = 0; hop <= MAX_HOPS; hop++) {
    const processes = ctx.calls[at.call]?.processes;
    if (processes === undefined) return null;
    const root = rootIn(processes, at.step, fromSkill.get(at.call) ?? new Set());
    if (root !== null) return { call: at.call, step: root };
    const p = processes[at.step];
    const source = p === undefined ? null : copiedFrom(p, path);
    if (source === null) return null;
    const prior = lastWriterBefore(ctx, source, at);
    if (prior === null) return null;
    path = source;
    at = prior;
  }
  return null;
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

/** Which of `roots` the process at `step` is, or descends from (by its recorded ancestors); null if none. */
function rootIn(
  processes: readonly { pid: number; parent_pid: number | null }[],
  step: number,
  roots: ReadonlySet<number>,
): number | null {
  const stepOf = new Map(processes.map((p, i) => [p.pid, i]));
  let at: number | undefined = step;
  for (let hops = 0; at !== undefined && hops <= processes.length; hops++) {
    if (roots.has(at)) return at;
    const parent: number | null | undefined = processes[at]?.parent_pid;
    at = parent === null || parent === undefined ? undefined : stepOf.get(parent);
  }
  return null;
}

function writerName(argv: readonly string[] | null | undefined): string {
  return (argv ?? ['?']).join(' ').slice(0, 80);
}
