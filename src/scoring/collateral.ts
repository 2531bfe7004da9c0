/**
 * No collateral change: the whole workspace's change, line by line, against what the reference
 * changes. The reference's edits of a file mark its regions: each top-level block (function,
 * class, statement: code-blocks.ts) a reference hunk touches, or the hunk's own lines in a file
 * without blocks (a page, prose, data). Inside a region anything goes: it is the code the task
 * needs changed, in whatever style. Outside, every change counts, whitespace too (a reformat, a
 * re-indent, a reorder, a stray comment), with one exception: new top-level definitions and imports
 * inserted between blocks, a helper the fix calls. A statement that runs at import (an import hook,
 * a patched builtin) is no definition and counts. Files the reference leaves alone must stay as
 * they were; a new file must be one the reference creates too, or of the same allowed kind (the
 * allowed_writes glob a file the reference creates matches, as a TDD task's `test_*.py`).
 */
import { diffLines } from 'diff';
import type { WorkspaceSnapshot } from '../sandbox/types.js';
import { type Block, blockLanguageOf, topLevelBlocks } from './code-blocks.js';
import { matchesAnyWorkspaceGlob, matchesWorkspaceGlob } from './glob.js';
import { sameEntry } from './snapshot-diff.js';

/** What the task allows beyond the reference's own regions (task.toml's `collateral`). */
export interface CollateralAllowance {
  /** Workspace globs where any change is allowed. */
  allow: readonly string[];
  /** Extra regions: the block headed by the first line `block` matches, in `file`. */
  regions: readonly { file: string; block: { test(line: string): boolean } }[];
}

export interface CollateralInput {
  /** The files as the task placed them (workspace-relative). */
  placed: ReadonlyMap<string, string>;
  /** Each file the reference changes, as it leaves it: null when it removes it. */
  reference: ReadonlyMap<string, string | null>;
  setupSnapshot: WorkspaceSnapshot;
  finalSnapshot: WorkspaceSnapshot;
  /** A workspace file's text as the trial left it (null: missing or not text). */
  readFinal(path: string): Promise<string | null>;
  allowedWrites: readonly string[];
  ignored: readonly string[];
  allowance: CollateralAllowance;
}

/** One change outside what the task needs: the file, and what happened, in a phrase. */
export interface CollateralChange {
  path: string;
  what: string;
}

export async function collateralChanges(input: CollateralInput): Promise<CollateralChange[]> {
  const out: CollateralChange[] = [];
  const paths = new Set([...input.setupSnapshot.keys(), ...input.finalSnapshot.keys()]);
  for (const path of [...paths].sort()) {
    const before = input.setupSnapshot.get(path);
    const after = input.finalSnapshot.get(path);
    if (sameEntry(before, after) || path === '') continue;
    if (before?.kind === 'dir' || after?.kind === 'dir') continue;
    if (matchesAnyWorkspaceGlob(input.ignored, path)) continue;
    if (matchesAnyWorkspaceGlob(input.allowance.allow, path)) continue;
    const change = await fileChange(input, path, before === undefined, after === undefined);
    if (change !== null) out.push({ path, what: change });
  }
  return out;
}

async function fileChange(
  input: CollateralInput,
  path: string,
  created: boolean,
  removed: boolean,
): Promise<string | null> {
  const reference = input.reference.get(path);
  if (created) return createdByKind(input, path) ? null : 'a new file the reference does not create';
  if (removed) return reference === null ? null : 'removed, which the reference keeps';
  const placed = input.placed.get(path);
  const final = await input.readFinal(path);
  if (placed !== undefined && final === placed) return 'its mode changed';
  if (reference === undefined) return 'changed, which the reference leaves alone';
  if (placed === undefined || final === null || reference === null)
    return reference === null ? 'kept, which the reference removes' : null;
  return outsideRegions(path, placed, reference, final, input.allowance);
}

/** Whether a new file is one the reference creates, or matches an allowed glob one of those does. */
function createdByKind(input: CollateralInput, path: string): boolean {
  const created = [...input.reference].filter(([p, c]) => c !== null && !input.placed.has(p)).map(([p]) => p);
  if (created.includes(path)) return true;
  return input.allowedWrites.some(
    (glob) => matchesWorkspaceGlob(glob, path) && created.some((p) => matchesWorkspaceGlob(glob, p)),
  );
}

/** A run of changed lines: old lines [from, to] replaced (to < from: an insertion after line to). */
interface Hunk {
  from: number;
  to: number;
  /** The lines put in, 1-based in the new text, [newFrom, newTo] (empty when newTo < newFrom). */
  newFrom: number;
  newTo: number;
}

/** The line hunks from `a` to `b`; a difference in the last newline alone is none. */
export function lineHunks(a: string, b: string): Hunk[] {
  const hunks: Hunk[] = [];
  let oldLine = 0;
  let newLine = 0;
  let open: Hunk | null = null;
  for (const part of diffLines(withEndNewline(a), withEndNewline(b))) {
    const count = part.count ?? 0;
    if (!part.added && !part.removed) {
      if (open !== null) hunks.push(open);
      open = null;
      oldLine += count;
      newLine += count;
      continue;
    }
    open ??= { from: oldLine + 1, to: oldLine, newFrom: newLine + 1, newTo: newLine };
    if (part.removed) {
      oldLine += count;
      open.to = oldLine;
    } else {
      newLine += count;
      open.newTo = newLine;
    }
  }
  if (open !== null) hunks.push(open);
  return hunks;
}

// A whole-file write loses or gains the last newline by how the model quoted it, not by a choice.
const withEndNewline = (t: string): string => (t === '' || t.endsWith('\n') ? t : `${t}\n`);

/** A text's lines as the hunks number them (index n - 1 is line n). */
const linesOf = (t: string): string[] => withEndNewline(t).split('\n');

/**
 * Positions on a file's lines and the gaps between them: line n is 2n, the gap after line n is
 * 2n + 1 (the gap before the first line is 1). A region is a closed range of positions.
 */
type Range = readonly [number, number];

const lineSpan = (from: number, to: number): Range => [2 * from - 1, 2 * to + 1];

/** The regions of a file the reference changes from `placed` to `reference`. */
export function regionsOf(
  path: string,
  placed: string,
  reference: string,
  allowance: CollateralAllowance,
): Range[] {
  const lang = blockLanguageOf(path);
  const blocks = lang === null ? [] : topLevelBlocks(withEndNewline(placed), lang);
  const ranges: Range[] = [];
  for (const h of lineHunks(placed, reference)) {
    // An insertion between two lines is a gap; one inside a block (between two of its lines) is the block's.
    const touched =
      h.to >= h.from
        ? blocks.filter((b) => b.from <= h.to && b.to >= h.from)
        : blocks.filter((b) => b.from <= h.to && b.to > h.to);
    ranges.push(h.to >= h.from ? lineSpan(h.from, h.to) : [2 * h.to + 1, 2 * h.to + 1]);
    for (const b of touched) ranges.push(lineSpan(b.from, b.to));
  }
  const lines = linesOf(placed);
  for (const r of allowance.regions) {
    if (r.file !== path) continue;
    const at = lines.findIndex((l) => r.block.test(l)) + 1;
    if (at === 0) continue;
    const block = blocks.find((b) => b.from <= at && b.to >= at);
    ranges.push(block === undefined ? lineSpan(at, at) : lineSpan(block.from, block.to));
  }
  return ranges;
}

const within = (ranges: readonly Range[], lo: number, hi: number): boolean =>
  ranges.some(([a, b]) => a <= lo && hi <= b);

function outsideRegions(
  path: string,
  placed: string,
  reference: string,
  final: string,
  allowance: CollateralAllowance,
): string | null {
  const regions = regionsOf(path, placed, reference, allowance);
  const lang = blockLanguageOf(path);
  const hunks = lineHunks(placed, final);
  const blocks =
    lang === null
      ? null
      : {
          old: topLevelBlocks(withEndNewline(placed), lang),
          final: topLevelBlocks(withEndNewline(final), lang),
        };
  const toOld = keptLines(hunks, linesOf(final).length);
  for (const h of hunks) {
    const replaced = h.to >= h.from;
    const [lo, hi] = replaced ? [2 * h.from, 2 * h.to] : [2 * h.to + 1, 2 * h.to + 1];
    const inRegion = within(regions, lo, hi);
    if (!inRegion && replaced)
      return `${h.to > h.from ? `lines ${h.from}-${h.to}` : `line ${h.from}`} changed outside what the task needs${whitespaceOnly(placed, final, h) ? ' (whitespace only)' : ''}`;
    if (blocks === null) {
      if (inRegion) continue;
      return `lines inserted after line ${h.to} outside what the task needs`;
    }
    const problem = newLinesProblem(final, blocks, h, toOld, regions, inRegion);
    if (problem !== null) return problem;
  }
  return null;
}

/** New line → the old line it is, unchanged (null for a line a hunk put in). */
function keptLines(hunks: readonly Hunk[], finalLines: number): (number | null)[] {
  const out: (number | null)[] = [];
  let old = 1;
  let next = 1;
  for (const h of [...hunks, { from: Number.POSITIVE_INFINITY, to: 0, newFrom: finalLines + 1, newTo: 0 }]) {
    while (next < h.newFrom && next <= finalLines) out[next++] = old++;
    for (; next <= h.newTo; next++) out[next] = null;
    if (h.to >= h.from) old = h.to + 1;
  }
  return out;
}

/**
 * What a hunk put in, judged by the top-level blocks of the new text: a block it extends must be
 * one the task needs changed, and a block wholly new must be a definition or import (a helper),
 * unless it stands in for a statement the hunk took out. A hook after the fixed function, or a
 * decorator put on an untouched one, counts.
 */
function newLinesProblem(
  final: string,
  blocks: { old: readonly Block[]; final: readonly Block[] },
  h: Hunk,
  toOld: readonly (number | null)[],
  regions: readonly Range[],
  inRegion: boolean,
): string | null {
  const lines = linesOf(final);
  const where =
    h.to < h.from
      ? `after line ${h.to}`
      : h.to === h.from
        ? `at line ${h.from}`
        : `at lines ${h.from}-${h.to}`;
  let statements = 0;
  for (let n = h.newFrom; n <= h.newTo; n++) {
    if ((lines[n - 1] ?? '').trim() === '') continue;
    const block = blocks.final.find((b) => b.from <= n && b.to >= n);
    if (block === undefined) {
      if (inRegion) continue;
      return `lines inserted ${where} outside what the task needs`;
    }
    const kept: number[] = [];
    // The comments above a block are not what it is: a new import under a kept header comment is new.
    for (let k = block.codeFrom; k <= block.to; k++) {
      const o = toOld[k];
      if (o !== null && o !== undefined) kept.push(o);
    }
    if (kept.length > 0 && !kept.some((o) => within(regions, 2 * o, 2 * o)))
      return `lines inserted ${where} change a block the task does not need changed (lines ${Math.min(...kept)}-${Math.max(...kept)})`;
    if (kept.length === 0 && !block.definition) statements++;
    if (kept.length === 0 && !inRegion && block.definition) {
      n = block.to;
      continue;
    }
    if (kept.length === 0 && !inRegion) return `lines inserted ${where} outside what the task needs`;
    n = Math.max(n, Math.min(block.to, h.newTo));
  }
  const takenOut = blocks.old.filter((b) => b.from >= h.from && b.to <= h.to && !b.definition).length;
  return statements > takenOut
    ? `lines inserted ${where}: a new top-level statement, not a function, class, constant or import`
    : null;
}

function whitespaceOnly(placed: string, final: string, h: Hunk): boolean {
  const squash = (t: string, from: number, to: number) =>
    linesOf(t)
      .slice(from - 1, to)
      .join('')
      .replace(/\s+/g, '');
  return squash(placed, h.from, h.to) === squash(final, h.newFrom, h.newTo);
}
