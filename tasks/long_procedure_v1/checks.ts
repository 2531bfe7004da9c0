/**
 * Each step's file judged against the values derived from the data: parsed (CSV rows, the report's
 * table, key=value lines, JSON), never matched as one substring. Each step is judged on its own, so
 * the score shows how far a run got.
 */
import { upToLast } from '../shared/up-to-last.js';
import {
  BY_COST,
  CARRIER_HEADER,
  CARRIER_TOTALS,
  DELIVERED,
  HEADER,
  row,
  TOP_CARRIER,
  TOP8,
  TOP8_COST,
} from './data.js';
import { STEP_FILES } from './procedure.js';
import { PLACEHOLDER, TEMPLATE } from './template.js';

/** null when the file is right, else what is wrong. */
export type StepCheck = (text: string, sizes: ReadonlyMap<string, number | null>) => string | null;

const lines = (text: string): string[] =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');

function rowsProblem(text: string, want: readonly (readonly string[])[]): string | null {
  const got = lines(text).map((l) => l.split(',').map((c) => c.trim()));
  if (got.length !== want.length) return `${got.length - 1} data rows, expected ${want.length - 1}`;
  const bad = want.findIndex((w, i) => w.join(',') !== got[i]?.join(','));
  return bad < 0 ? null : `line ${bad + 1} is "${got[bad]?.join(',')}", expected "${want[bad]?.join(',')}"`;
}

const table = (shipments: typeof DELIVERED): string[][] => [[...HEADER], ...shipments.map(row)];

/** Template lines around the placeholder, compared line by line with surrounding whitespace ignored. */
function reportProblem(text: string): string | null {
  const template = lines(TEMPLATE);
  const slot = template.indexOf(PLACEHOLDER);
  const before = template.slice(0, slot);
  const after = template.slice(slot + 1);
  const got = lines(text);
  if (got.length < before.length + after.length) return 'the page is shorter than the template';
  const head = before.findIndex((l, i) => got[i] !== l);
  if (head >= 0) return `template line ${head + 1} differs`;
  const tail = got.slice(got.length - after.length);
  const foot = after.findIndex((l, i) => tail[i] !== l);
  if (foot >= 0) return `template line ${before.length + 2 + foot} differs`;
  const middle = got.slice(before.length, got.length - after.length).join('\n');
  if (!/^<table\b[^>]*>[\s\S]*<\/table>$/.test(middle))
    return 'the placeholder was not replaced by one table';
  // A row's or cell's start tag holds no `<`: else `<tr<tr<tr…</tr>` rescans to the end from each.
  const rows = [...upToLast(middle, /<\/tr>/g).matchAll(/<tr\b[^<>]*>([\s\S]*?)<\/tr>/g)].map((m) =>
    [...upToLast(m[1] ?? '', /<\/t[hd]>/g).matchAll(/<t[hd]\b[^<>]*>([\s\S]*?)<\/t[hd]>/g)].map((c) =>
      (c[1] ?? '').trim(),
    ),
  );
  const want = [['id', 'carrier', 'cost'], ...TOP8.map((s) => [s.id, s.carrier, String(s.cost)])];
  return rows.map((r) => r.join(',')).join('|') === want.map((r) => r.join(',')).join('|')
    ? null
    : 'the table rows are not the top eight';
}

function manifestProblem(text: string, sizes: ReadonlyMap<string, number | null>): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  if (!Array.isArray(parsed) || parsed.length !== 6) return 'not an array of six entries';
  for (const [i, entry] of parsed.entries()) {
    const file = STEP_FILES[i];
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
      return `entry ${i + 1} is not an object`;
    const keys = Object.keys(entry).sort().join(',');
    if (keys !== 'bytes,file,step') return `entry ${i + 1} has keys ${keys}`;
    const e = entry as Record<string, unknown>;
    if (e.step !== i + 1 || e.file !== file) return `entry ${i + 1} is not step ${i + 1}, ${file}`;
    const size = file === undefined ? null : (sizes.get(file) ?? null);
    if (size === null || e.bytes !== size)
      return `entry ${i + 1}: bytes ${String(e.bytes)}, the file has ${size ?? 'none'}`;
  }
  return null;
}

/** One check per step, in step order. */
export const STEP_CHECKS: readonly StepCheck[] = [
  (text) => rowsProblem(text, table(DELIVERED)),
  (text) => rowsProblem(text, table(BY_COST)),
  (text) => rowsProblem(text, table(TOP8)),
  (text) => reportProblem(text),
  (text) =>
    rowsProblem(text, [[...CARRIER_HEADER], ...CARRIER_TOTALS.map(([c, n, t]) => [c, String(n), String(t)])]),
  (text) => {
    const want = [`DELIVERED=${DELIVERED.length}`, `TOP8_COST=${TOP8_COST}`, `TOP_CARRIER=${TOP_CARRIER}`];
    const got = lines(text);
    return got.join('|') === want.join('|') ? null : `the lines are: ${got.slice(0, 4).join(' | ')}`;
  },
  manifestProblem,
];
