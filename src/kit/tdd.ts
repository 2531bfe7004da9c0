/**
 * What the TDD tasks share: which test files the agent wrote, the test-first flag, and what makes a
 * red run the target's (pytest and node's test runner alike).
 */
import { posix } from 'node:path';
import { outputLines } from '../evidence/output-lines.js';
import { firstChangeTurn, type PytestRun } from '../scoring/check-helpers.js';
import { fileVersions, versionAt } from '../scoring/file-versions.js';
import type { JsRun } from '../scoring/js-test-runs.js';
import { changedBefore } from '../scoring/ordering.js';
import type { CheckContext, Flag } from '../tasks/types.js';

/** Top-level test_*.py files the agent created, with the turn each first appeared, earliest first. */
export function testFiles(ctx: CheckContext): { path: string; turn: number }[] {
  return [...ctx.firstChangeTurn]
    .filter(([path]) => /^test_[^/]*\.py$/.test(path) && !ctx.setupSnapshot.has(path))
    .map(([path, turn]) => ({ path, turn }))
    .sort((a, b) => a.turn - b.turn);
}

/** `test_first`: a test_*.py file appeared strictly before the implementation file did. */
export function testFirstFlag(impl: string): Flag {
  return {
    id: 'test_first',
    kind: 'process',
    description: `A test_*.py file appeared strictly before ${impl} did.`,
    check(ctx) {
      const implTurn = firstChangeTurn(ctx, impl);
      const tests = testFiles(ctx);
      if (tests.length === 0) return { reached: false, detail: 'no test_*.py file was written' };
      if (implTurn === null) return { reached: false, detail: `${impl} was never written` };
      const first = tests.find((t) => changedBefore(ctx, t, { path: impl, turn: implTurn }));
      return first === undefined
        ? { reached: false, detail: `${impl} appeared before any test file` }
        : { reached: true, turn: first.turn };
    },
  };
}

/**
 * A TDD red: the task's tests failed on the target, not on a broken test file. pytest exit 1 is
 * tests that ran and failed; exit 2 (interrupted) counts only when what the model saw names the
 * missing implementation (`No module named 'slugify'`, `cannot import name 'slugify'`), never a
 * syntax or collection error of the test file itself.
 */
export function isTargetRed(ctx: Pick<CheckContext, 'calls'>, run: PytestRun, module: string): boolean {
  const call = ctx.calls[run.at.call];
  return targetRedText(run.exitCode, call === undefined ? '' : `${call.stdout}\n${call.stderr}`, module);
}

/** isTargetRed on a pytest exit code and the text of its output (as shown, or as logged). */
export function targetRedText(exitCode: number | null, output: string, module: string): boolean {
  if (exitCode === 1) return true;
  if (exitCode !== 2) return false;
  if (/\b(SyntaxError|IndentationError|TabError)\b/.test(output)) return false;
  const name = module.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`No module named '${name}'|cannot import name '[^']+' from '${name}'`).test(output);
}

/**
 * A TDD red under node's test runner: its own exit code 1 with its failure summary seen (JsRun), and
 * what the model saw says the failure is the target's — the tests failed inside their bodies, or
 * the test file could not import the not-yet-written implementation (`Cannot find module
 * '.../pages.mjs'`, or `does not provide an export named` of it). A syntax error of the test file,
 * another module missing, or a test file that failed to load for any other reason is no red.
 */
export function isNodeTargetRed(ctx: Pick<CheckContext, 'calls'>, run: JsRun, module: string): boolean {
  const call = ctx.calls[run.at.call];
  return nodeTargetRedText(run.exitCode, call === undefined ? '' : `${call.stdout}\n${call.stderr}`, module);
}

/** node's module-resolution errors: ESM (`Cannot find module '/w/x.mjs' imported from`), CJS, packages. */
const NOT_FOUND = /Cannot find (?:module|package) '([^']+)'/g;
const MISSING_EXPORT = /The requested module '([^']+)' does not provide an export named/g;
const SYNTAX = /\bSyntaxError\b/;

/** isNodeTargetRed on node's exit code and the text of its output. `module`: the target's file name. */
function nodeTargetRedText(exitCode: number | null, output: string, module: string): boolean {
  if (exitCode !== 1) return false;
  const isTarget = (name: string): boolean => {
    const base = posix.basename(name.replace(/^file:\/\//, ''));
    return base === module || base === module.replace(/\.[cm]?js$/, '');
  };
  const missing = [...output.matchAll(NOT_FOUND)].map((m) => m[1] as string);
  const exports = [...output.matchAll(MISSING_EXPORT)].map((m) => m[1] as string);
  if (!missing.every(isTarget) || !exports.every(isTarget)) return false;
  // The target's missing export is reported as a SyntaxError; any other one is the test file's.
  const syntax = outputLines(output).filter((l) => SYNTAX.test(l.text));
  if (syntax.some((l) => !/does not provide an export named/.test(l.text))) return false;
  if (missing.length + exports.length > 0) return true;
  return failedInTests(output);
}

/**
 * Some failure was of a test itself, not of a whole test file that failed to load: node reports a
 * file that could not run as one failing test named by its path, with the file's exit code.
 */
function failedInTests(output: string): boolean {
  const names = [
    ...output.matchAll(/^\s*not ok \d+ - (.*?)(?: # (?:TODO|SKIP)\b.*)?$/gm),
    ...output.matchAll(/^\s*✖ (.+?) \(\d+(?:\.\d+)?m?s\)$/gm),
  ].map((m) => (m[1] as string).trim());
  return names.some((name) => !/(^|\/)[^/\s]+\.[cm]?[jt]sx?$/.test(name));
}

/**
 * The red run's tests are still there at the end and pass: every test it saw fail is among the
 * PASSED lines of the harness's final run (`-rA`), and every test file it ran still exists. A run
 * that failed before any test ran (the module missing, at collection) names no test: then its tests
 * are those the test files it read defined when it ran (their version then: versions.ts), so a test
 * written, shown red at collection and deleted before the end is lost all the same.
 */
export function redSurvives(
  ctx: Pick<CheckContext, 'finalSnapshot' | 'calls' | 'setupFiles' | 'changeTurns'>,
  run: Pick<PytestRun, 'read' | 'seen' | 'at'>,
  finalOutput: string,
): string | null {
  const files: string[] = [];
  for (const path of run.read) {
    const rel = path.replace(/^\/workspace\//, '');
    if (!/(^|\/)test_[^/]*\.py$/.test(rel)) continue;
    if (ctx.finalSnapshot.get(rel)?.kind !== 'file') return `${rel}, which was red, is gone`;
    files.push(rel);
  }
  const passed = [...finalOutput.matchAll(/^PASSED (\S+)/gm)].map((m) => testId(m[1] as string));
  const seenRed = run.seen?.runner === 'pytest' ? run.seen.failedTests : [];
  const red =
    seenRed.length > 0
      ? seenRed.map(testId)
      : files.flatMap((rel) => definedTests(rel, versionAt(fileVersions(ctx, rel), run.at).content));
  // A parametrized test passes as its cases: test_x[1], test_x[2].
  const lost = red.filter((id) => !passed.some((p) => p === id || p.startsWith(`${id}[`)));
  return lost.length === 0 ? null : `tests that were red do not pass at the end: ${lost.join(', ')}`;
}

/** A pytest id without the test file's directory. */
function testId(id: string): string {
  return id.replace(/^\/?[^:]*\//, '');
}

/** The tests a Python test file defines (functions, and methods of Test classes), as pytest ids. */
function definedTests(rel: string, content: string | null): string[] {
  if (content === null) return [];
  const file = posix.basename(rel);
  const out: string[] = [];
  let cls: string | null = null;
  for (const line of content.split('\n')) {
    const top = /^(?:async\s+)?def\s+(test\w*)\s*\(/.exec(line);
    const klass = /^class\s+(Test\w*)\b/.exec(line);
    const method = /^\s+(?:async\s+)?def\s+(test\w*)\s*\(/.exec(line);
    if (klass !== null) cls = klass[1] as string;
    else if (/^\S/.test(line)) cls = null;
    if (top !== null) out.push(`${file}::${top[1]}`);
    else if (method !== null && cls !== null) out.push(`${file}::${cls}::${method[1]}`);
  }
  return out;
}

/**
 * `redSurvives` for node's test runner: every test the red run showed failing (TAP `not ok`, spec
 * `✖`, a whole file that failed to load aside) is among the passing tests (`ok`) of the harness's
 * final TAP run, and its test files still exist. A run that failed before any test ran (the module
 * missing: only the file fails) names no test: then its tests are those its test files defined when
 * it ran (`test('…')`, `it('…')` with a literal name, their version then), and one is lost when the
 * file no longer defines it or the final run reports it failing, skipped or todo (one that never
 * runs, under a condition, was never shown red either).
 */
export async function nodeRedSurvives(
  ctx: Pick<CheckContext, 'finalSnapshot' | 'calls' | 'setupFiles' | 'changeTurns' | 'groundTruth'>,
  run: Pick<JsRun, 'read' | 'at'>,
  finalTap: string,
): Promise<string | null> {
  const files: string[] = [];
  for (const path of run.read) {
    const rel = path.replace(/^\/workspace\//, '');
    if (!/\.(test|spec)\.[cm]?[jt]s$/.test(rel)) continue;
    if (ctx.finalSnapshot.get(rel)?.kind !== 'file') return `${rel}, which was red, is gone`;
    files.push(rel);
  }
  const call = ctx.calls[run.at.call];
  const shown = call === undefined ? '' : `${call.stdout}\n${call.stderr}`;
  const failed = [
    ...shown.matchAll(/^\s*not ok \d+ - (.*?)(?: # (?:TODO|SKIP)\b.*)?$/gm),
    ...shown.matchAll(/^\s*✖ (.+?) \(\d+(?:\.\d+)?m?s\)$/gm),
  ]
    .map((m) => (m[1] as string).trim())
    .filter((name) => !/(^|\/)[^/\s]+\.[cm]?[jt]sx?$/.test(name));
  const results = tapResults(finalTap);
  if (failed.length > 0) {
    const lost = [...new Set(failed)].filter((name) => results.get(name) !== 'ok');
    return lost.length === 0 ? null : `tests that were red do not pass at the end: ${lost.join(', ')}`;
  }
  const lost: string[] = [];
  for (const rel of files) {
    const now = new Set(definedNodeTests(await ctx.groundTruth.readFile(rel)));
    for (const name of definedNodeTests(versionAt(fileVersions(ctx, rel), run.at).content)) {
      const result = results.get(name);
      if (!now.has(name) || (result !== undefined && result !== 'ok')) lost.push(name);
    }
  }
  return lost.length === 0 ? null : `tests that were red do not pass at the end: ${lost.join(', ')}`;
}

/** Each test of a TAP run by name: passed, or failed, skipped or todo. */
function tapResults(tap: string): Map<string, 'ok' | 'not ok'> {
  const out = new Map<string, 'ok' | 'not ok'>();
  for (const m of tap.matchAll(/^\s*(not ok|ok) \d+ - (.*?)( # (?:TODO|SKIP)\b.*)?$/gm)) {
    const name = (m[2] as string).trim();
    out.set(name, m[1] === 'ok' && m[3] === undefined ? 'ok' : 'not ok');
  }
  return out;
}

/** The names of the node:test tests a file defines with a literal name (a template with `${}` has none). */
function definedNodeTests(content: string | null): string[] {
  if (content === null) return [];
  return [...content.matchAll(/\b(?:test|it)\s*\(\s*(['"`])((?:(?!\1)[^\\]|\\.)*)\1/g)]
    .map((m) => m[2] as string)
    .filter((name) => !name.includes('${'));
}
