/**
 * Reads judged by what reached the model: a file counts as read when enough of its lines appear in
 * the tool output the model received (read_file's content, or a command's stdout and stderr), whatever
 * the command was. `cat f | wc -c` shows nothing of f; `grep -n TAX services/*.py` shows the lines it
 * printed; `sed -n 1,40p` then `sed -n 41,80p` add up. Each call's output is matched against the file
 * as it was when the call read it (file-versions.ts): the setup content until its first change, then
 * what was written, never content the file no longer held. firstRead asks about the task's setup
 * content, so only reads of that content count for it.
 */
import { posix } from 'node:path';
import { type LineRange, wasShown } from '../evidence/coverage.js';
import { type ShownLines, shownLines } from '../evidence/shown-lines.js';
import type { ToolCallLog } from '../results/trial.js';
import { WORKSPACE_DIR } from '../sandbox/types.js';
import type { CheckContext } from '../tasks/types.js';
import { type FileVersion, fileVersions, versionAt } from './file-versions.js';
import type { StepRef } from './ordering.js';

type Ctx = Pick<CheckContext, 'calls' | 'setupFiles' | 'changeTurns'>;

/** How much of a file must have been shown for it to count as read. */
export interface ReadNeed {
  /** Fraction of the file's substantive lines (default 0.5). */
  atLeast?: number;
  /** Or: the part that matters (e.g. one function, the lines to change) was shown... */
  lines?: readonly number[] | LineRange;
  /** ...this fraction of its substantive lines (default 1: all of them). */
  linesAtLeast?: number;
}

export interface SeenRead {
  turn: number;
  /**
   * The call at which enough had been shown; its step is the first of the call's processes that
   * opened the file (the reader), or 0 when the trace names none.
   */
  at: StepRef;
  shown: ShownLines;
}

/** A read of one version of the file: the lines it showed are line numbers of that content. */
export interface VersionRead extends SeenRead {
  version: FileVersion;
}

/** The lines of the file at absPath that one call showed the model (null when none, or not a file of the task). */
function shownBy(call: ToolCallLog, absPath: string, content: string): ShownLines | null {
  if (call.invalid !== null) return null;
  const text = call.name === 'read_file' ? readFileShown(call, absPath) : commandShown(call);
  if (text === null || text === '') return null;
  const shown = shownLines(content, text, { paths: pathForms(absPath, printedFrom(call, absPath)) });
  return shown.lines.length === 0 ? null : shown;
}

/**
 * The first call by which the lines shown so far (counting only calls `counted` accepts) meet the
 * need, or undefined.
 */
export function firstRead(
  ctx: Ctx,
  absPath: string,
  need: ReadNeed = {},
  counted: (at: StepRef, turn: number) => boolean = () => true,
): SeenRead | undefined {
  const setup = ctx.setupFiles.get(relative(absPath));
  if (setup === undefined) return undefined;
  const versions = fileVersions(ctx, relative(absPath));
  const seen = new Set<number>();
  for (const [call, log] of ctx.calls.entries()) {
    const at = { call, step: readerStep(log, absPath) };
    if (!counted(at, log.turn) || versionAt(versions, at).content !== setup) continue;
    const shown = shownBy(log, absPath, setup);
    if (shown === null) continue;
    for (const n of shown.lines) seen.add(n);
    const sofar: ShownLines = { ...shown, lines: [...seen].sort((a, b) => a - b) };
    if (meets(sofar, need)) return { turn: log.turn, at, shown: sofar };
  }
  return undefined;
}

/** Every call that showed the model at least one substantive line of the file as it then was, in order. */
export function readsOf(ctx: Ctx, absPath: string): VersionRead[] {
  const versions = fileVersions(ctx, relative(absPath));
  const out: VersionRead[] = [];
  for (const [call, log] of ctx.calls.entries()) {
    const at = { call, step: readerStep(log, absPath) };
    const version = versionAt(versions, at);
    if (version.content === null) continue;
    const shown = shownBy(log, absPath, version.content);
    if (shown !== null && wasShown(shown, { atLeast: Number.MIN_VALUE }))
      out.push({ turn: log.turn, at, shown, version });
  }
  return out;
}

function readerStep(log: ToolCallLog, absPath: string): number {
  const step = log.processes?.findIndex((p) => p.reads.includes(absPath)) ?? -1;
  return Math.max(step, 0);
}

function meets(shown: ShownLines, need: ReadNeed): boolean {
  if (wasShown(shown, { atLeast: need.atLeast ?? 0.5 })) return true;
  return need.lines !== undefined && wasShown(shown, { lines: need.lines, atLeast: need.linesAtLeast ?? 1 });
}

function readFileShown(call: ToolCallLog, absPath: string): string | null {
  const path = call.arguments?.path;
  if (typeof path !== 'string' || call.exit_code !== 0) return null;
  return posix.resolve(call.cwd, path) === absPath ? call.stdout : null;
}

function commandShown(call: ToolCallLog): string | null {
  if (call.name !== 'execute_command') return null;
  return call.stderr === '' ? call.stdout : `${call.stdout}\n${call.stderr}`;
}

/**
 * The directories the file may have been printed from: the call's starting directory, and that of
 * every traced process that opened it (`cd services && grep -r 0.07 .` prints `./invoicing.py:...`).
 */
function printedFrom(call: ToolCallLog, absPath: string): string[] {
  const cwds = new Set([call.cwd]);
  for (const p of call.processes ?? []) if (p.cwd !== null && p.reads.includes(absPath)) cwds.add(p.cwd);
  return [...cwds];
}

/** How an output may name the file in a grep-style prefix: absolute, workspace-relative, cwd-relative. */
function pathForms(absPath: string, cwds: readonly string[]): string[] {
  const rels = cwds.map((cwd) => posix.relative(cwd, absPath));
  return [...new Set([absPath, relative(absPath), ...rels, ...rels.map((rel) => `./${rel}`)])];
}

function relative(absPath: string): string {
  return posix.relative(WORKSPACE_DIR, absPath);
}
