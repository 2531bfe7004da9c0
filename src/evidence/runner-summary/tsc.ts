/**
 * tsc's verdict. tsc prints nothing when it succeeds, so success can be seen only where it says
 * so (`Found 0 errors. Watching for file changes.`); otherwise no error shown is `unknown`, never
 * `passed`. This reader therefore always returns a summary, with `errors: 0, seenSuccess: false`
 * when the text shows nothing of tsc. Diagnostics come plain (`f.ts(3,7): error TS2322: ...`,
 * tsc's format when piped) or pretty (`f.ts:3:7 - error TS2322: ...`, on a TTY or with --pretty,
 * which adds `Found 3 errors in 2 files.`).
 */
import type { OutputLine } from '../output-lines.js';
import { cutWithin, type SummaryBase, type SummaryReader } from './summary.js';

interface TscDiagnostic {
  /** null for a diagnostic about the configuration (`error TS5058: The specified path ...`). */
  file: string | null;
  line: number | null;
  column: number | null;
  code: string;
  message: string;
}

export interface TscSummary extends SummaryBase {
  runner: 'tsc';
  /** The count tsc reported, else the diagnostics seen. */
  errors: number;
  /** From `Found N errors`; null when tsc printed no such line (plain format, or nothing). */
  reportedErrors: number | null;
  diagnostics: TscDiagnostic[];
  /** tsc said `Found 0 errors`. */
  seenSuccess: boolean;
}

// `s`: the message is anything, so `$` cannot fail after it and send the path back over the line
// once per `(1,2): error TS1: ` in it (lines are the model's output).
const PLAIN = /^(.+)\((\d+),(\d+)\): error (TS\d+): (.*)$/s;
const PRETTY = /^(.+):(\d+):(\d+) - error (TS\d+): (.*)$/s;
const GLOBAL = /^error (TS\d+): (.*)$/;
/** Watch mode prefixes a timestamp: `[12:00:00 PM] Found 0 errors. Watching for file changes.` */
const FOUND = /^(?:\[[^\]]*\] )?Found (\d+) errors?\b/;

export const readTscSummary: SummaryReader<TscSummary> = (lines) => {
  const found: number[] = [];
  lines.forEach((line, i) => {
    if (!line.fragment && FOUND.test(line.text.trim())) found.push(i);
  });
  const last = found.at(-1) ?? -1;
  const trailing = diagnosticsIn(lines, last + 1, lines.length);
  // Diagnostics after the last `Found` line are a later run in the plain format.
  if (trailing.length > 0 || last < 0) return summary(null, trailing, lines, last + 1, lines.length);
  const start = (found.at(-2) ?? -1) + 1;
  const reported = Number(FOUND.exec(lines[last]?.text.trim() ?? '')?.[1] ?? 0);
  return summary(reported, diagnosticsIn(lines, start, last), lines, start, last + 1);
};

function diagnosticsIn(lines: readonly OutputLine[], from: number, to: number): TscDiagnostic[] {
  const diagnostics: TscDiagnostic[] = [];
  for (let i = from; i < to; i++) {
    const line = lines[i];
    if (line === undefined || line.fragment) continue;
    const text = line.text.trim();
    const located = PLAIN.exec(text) ?? PRETTY.exec(text);
    if (located !== null) {
      diagnostics.push({
        file: located[1] ?? null,
        line: Number(located[2]),
        column: Number(located[3]),
        code: located[4] ?? '',
        message: located[5] ?? '',
      });
      continue;
    }
    const global = GLOBAL.exec(text);
    if (global !== null)
      diagnostics.push({
        file: null,
        line: null,
        column: null,
        code: global[1] ?? '',
        message: global[2] ?? '',
      });
  }
  return diagnostics;
}

function summary(
  reported: number | null,
  diagnostics: TscDiagnostic[],
  lines: readonly OutputLine[],
  from: number,
  to: number,
): TscSummary {
  const errors = reported ?? diagnostics.length;
  const seenSuccess = reported === 0;
  return {
    runner: 'tsc',
    verdict: errors > 0 ? 'failed' : seenSuccess ? 'passed' : 'unknown',
    cut: cutWithin(lines, from, to),
    errors,
    reportedErrors: reported,
    diagnostics,
    seenSuccess,
  };
}
