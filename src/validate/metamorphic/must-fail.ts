/**
 * The must-fail operators: runs that undo part of the reference's work, or fake its evidence, while
 * the rest of its session stays as it was. Each must be caught: the trial fails.
 */
import { createTwoFilesPatch } from 'diff';
import { referenceRunnerRuns } from './evidence-fakes.js';
import { isTestFile, languageOf, lineMutants } from './line-mutants.js';
import {
  contentWrite,
  landed,
  shellQuote,
  withCallAt,
  withContentAt,
  withRemovalAt,
} from './script-edits.js';
import type { DerivedRun, ReferenceRun } from './types.js';

/**
 * Every file the reference changed put back as the task placed it (a file it created, removed),
 * each once the reference last changed it: its runs and reads stay, its work is gone.
 */
export function revertChange(ref: ReferenceRun): DerivedRun[] {
  if (ref.changed.length === 0) return [];
  const byShell = ref.judgedBy === 'verifier';
  let script = [...ref.script];
  for (const f of ref.changed)
    script =
      f.before === null
        ? withRemovalAt(script, f.lastTurn, f.path)
        : withContentAt(script, f.lastTurn, f.path, f.before, byShell);
  return [
    {
      operator: 'revert_change',
      id: 'revert_change',
      description: `every change put back as it was (${ref.changed.map((f) => f.path).join(', ')})`,
      diff: ref.changed.map((f) => patch(f.path, f.after ?? '', f.before ?? '')).join('\n'),
      script,
      applied: (trial) => {
        for (const f of ref.changed) {
          if (f.before === null) continue;
          const failed = landed(contentWrite(f.path, f.before, byShell))(trial);
          if (failed !== null) return `${f.path}: ${failed}`;
        }
        return null;
      },
    },
  ];
}

/** Mutants of the code lines the reference changed, each in place of the reference's last edit of the file. */
export function codeMutants(ref: ReferenceRun): DerivedRun[] {
  const byShell = ref.judgedBy === 'verifier';
  const seen = new Map<string, number>();
  // Two mutants alike on one line (a constant twice) get their place in the id.
  const unique = (id: string): string => {
    const n = (seen.get(id) ?? 0) + 1;
    seen.set(id, n);
    return n === 1 ? id : `${id}#${n}`;
  };
  return ref.changed.flatMap((f) => {
    const lang = languageOf(f.path);
    // A test file is judged by what it catches, not by its lines: weakening tests is an operator of its own.
    if (lang === null || f.after === null || isTestFile(f.path)) return [];
    const after = f.after;
    return lineMutants(f.before, after, lang).map((m) => ({
      operator: 'code_mutant' as const,
      id: unique(`code_mutant:${f.path}:${m.line}:${m.what}`),
      description: `${f.path} line ${m.line}: ${m.what}`,
      diff: patch(f.path, after, m.content),
      script: withContentAt(ref.script, f.lastTurn, f.path, m.content, byShell),
      applied: landed(contentWrite(f.path, m.content, byShell)),
    }));
  });
}

/**
 * Each test file the reference's test runs read, removed before its last test run, and a Python
 * one skipped there instead (a module-level `pytestmark`): the tests the agent was shown are gone
 * by the time it shows itself green, the cheat of deleting what fails.
 */
export function testsRemoved(ref: ReferenceRun): DerivedRun[] {
  const runs = referenceRunnerRuns(ref);
  const last = runs.at(-1);
  // Placed at the end of the turn before the last run, so that run is green on what is left.
  if (last === undefined || last.turn < 2) return [];
  const tests = [...new Set(runs.flatMap((r) => [...r.read]))]
    .map((abs) => abs.slice('/workspace/'.length))
    .filter((rel) => isTestFile(rel))
    .sort();
  return tests.flatMap((path) => {
    const removed: DerivedRun = {
      operator: 'tests_removed',
      id: `tests_removed:${path}`,
      description: `${path} removed before the last test run (turn ${last.turn})`,
      script: withRemovalAt(ref.script, last.turn - 1, path),
    };
    if (!path.endsWith('.py')) return [removed];
    const skip = `import pytest\npytestmark = pytest.mark.skip(reason="later")\n`;
    const command = `f=${shellQuote(`/workspace/${path}`)}; { printf '%s' ${shellQuote(skip)}; cat "$f"; } > "$f.ab" && cat "$f.ab" > "$f" && rm -f "$f.ab"`;
    return [
      removed,
      {
        operator: 'tests_removed' as const,
        id: `tests_removed:${path}:skipped`,
        description: `${path} skipped (pytestmark) before the last test run (turn ${last.turn})`,
        script: withCallAt(ref.script, last.turn - 1, { name: 'execute_command', arguments: { command } }),
      },
    ];
  });
}

/**
 * Each file the reference wrote that is no code (a report, a page, data), swapped for one of the
 * same shape and another meaning: every number changed, or its words made placeholders. An
 * artifact check that still passes checks the shape only.
 */
export function artifactSwap(ref: ReferenceRun): DerivedRun[] {
  return ref.changed.flatMap((f) => {
    const after = f.after;
    if (after === null || languageOf(f.path) !== null) return [];
    const numbers = (t: string) => t.replace(/\d+/g, (n) => String(Number(n) + 1));
    const words = (t: string) => t.replace(/\p{L}{4,}/gu, 'lorem');
    return [
      { what: 'numbers', content: inMeaning(f.path, after, numbers) },
      { what: 'placeholder', content: inMeaning(f.path, after, words) },
    ]
      .filter((v) => v.content !== after)
      .map((v) => ({
        operator: 'artifact_swap' as const,
        id: `artifact_swap:${f.path}:${v.what}`,
        description: `${f.path} with its ${v.what === 'numbers' ? 'numbers changed' : 'words made placeholders'}`,
        diff: patch(f.path, after, v.content),
        script: withContentAt(ref.script, f.lastTurn, f.path, v.content),
      }));
  });
}

/**
 * `text` with `change` applied where its meaning is: a page's text outside its styles and scripts
 * (a style's `12px` is shape), a JSON file's string and number values, all of a prose or data file
 * (Markdown, text, CSV); nothing of another format.
 */
function inMeaning(path: string, text: string, change: (t: string) => string): string {
  if (/\.html?$/i.test(path))
    // The lookahead leaves a tag's `<` to the next match, so a <style> after a text is seen whole.
    return text.replace(/(<(style|script)\b[\s\S]*?<\/\2>)|>([^<]+)(?=<)/gi, (m, code, _tag, t) =>
      code !== undefined ? m : `>${change(t)}`,
    );
  if (/\.json$/i.test(path))
    return text.replace(
      /(:\s*)("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?)/g,
      (_, sep: string, v: string) => sep + change(v),
    );
  return /\.(md|txt|csv|rst|log)$/i.test(path) || !/\.[^/]+$/.test(path) ? change(text) : text;
}

function patch(path: string, from: string, to: string): string {
  return createTwoFilesPatch(path, path, from, to, 'reference', 'derived', { context: 1 })
    .split('\n')
    .slice(2)
    .join('\n');
}
