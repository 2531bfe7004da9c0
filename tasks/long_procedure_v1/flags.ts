/**
 * long_procedure_v1's checks that need code: each step's file judged against the values the data
 * gives, parsed (CSV rows, the report's table, key=value lines, JSON), never matched as one
 * substring, and each on its own, so the score shows how far a run got; and the order the step
 * files appeared in. The expected values are derived from the task's own files as it placed them
 * (data/shipments.csv, and the template inside PROCEDURE.md), so they cannot disagree, and from
 * the instance's step-1 weight threshold (ctx.instance.min_weight, the number PROCEDURE.md states).
 */
import {
  type CheckContext,
  changedBefore,
  type FlagOutcome,
  firstChangeTurn,
  upToLast,
} from '../../src/kit/index.js';

/** The seven output files, in step order. */
const STEP_FILES = [
  'output/step1_delivered.csv',
  'output/step2_by_cost.csv',
  'output/step3_top8.csv',
  'output/step4_report.html',
  'output/step5_carriers.csv',
  'output/step6_totals.txt',
  'output/step7_manifest.json',
] as const;

const PLACEHOLDER = '<!-- TOP8_TABLE -->';

interface Shipment {
  /** The six cells, as data/shipments.csv has them. */
  row: string[];
  carrier: string;
  weight: number;
  cost: number;
  status: string;
}

/** Step 1's threshold: delivered rows lighter than this many kg are left out. */
function minWeight(ctx: CheckContext): number {
  const w = ctx.instance.min_weight;
  if (typeof w !== 'number' || !Number.isFinite(w))
    throw new Error('long_procedure_v1: instance.json has no numeric min_weight');
  return w;
}

/** Every value the steps must produce, from the data and the procedure. */
function expected(ctx: CheckContext) {
  const [header = [], ...body] = lines(ctx.setupFiles.get('data/shipments.csv') ?? '').map((l) =>
    l.split(','),
  );
  const shipments: Shipment[] = body.map((row) => ({
    row,
    carrier: row[1] ?? '',
    weight: Number(row[3]),
    cost: Number(row[4]),
    status: row[5] ?? '',
  }));
  const least = minWeight(ctx);
  const delivered = shipments.filter((s) => s.status === 'delivered' && s.weight >= least);
  const byCost = [...delivered].sort((a, b) => b.cost - a.cost);
  const top8 = byCost.slice(0, 8);
  const carriers = [...new Set(delivered.map((s) => s.carrier))].sort().map((c) => {
    const mine = delivered.filter((s) => s.carrier === c);
    return [c, mine.length, mine.reduce((n, s) => n + s.cost, 0)] as const;
  });
  const topCarrier = [...carriers].sort((a, b) => b[2] - a[2])[0]?.[0] ?? '';
  const procedure = ctx.setupFiles.get('PROCEDURE.md') ?? '';
  const template = procedure.split('```html\n', 2)[1]?.split('```', 1)[0] ?? '';
  return {
    table: (rows: readonly Shipment[]) => [header, ...rows.map((s) => s.row)],
    delivered,
    byCost,
    top8,
    carriers,
    totals: [
      `DELIVERED=${delivered.length}`,
      `TOP8_COST=${top8.reduce((n, s) => n + s.cost, 0)}`,
      `TOP_CARRIER=${topCarrier}`,
    ],
    template,
  };
}

type Expected = ReturnType<typeof expected>;

const miss = (detail: string): FlagOutcome => ({ reached: false, detail });

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

/** Template lines around the placeholder, compared line by line with surrounding whitespace ignored. */
function reportProblem(text: string, e: Expected): string | null {
  const template = lines(e.template);
  const slot = template.indexOf(PLACEHOLDER);
  if (slot < 0) throw new Error(`the task's PROCEDURE.md has no ${PLACEHOLDER} in its template`);
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
  const want = [['id', 'carrier', 'cost'], ...e.top8.map((s) => [s.row[0] ?? '', s.carrier, String(s.cost)])];
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

/** The check of step i + 1: its file, read after the last turn, judged by `problem`. */
function step(
  i: number,
  problem: (text: string, ctx: CheckContext) => string | null | Promise<string | null>,
) {
  return async (ctx: CheckContext): Promise<FlagOutcome> => {
    const path = STEP_FILES[i] ?? '';
    const text = await ctx.groundTruth.readFile(path);
    if (text === null) return miss(`${path} was not written`);
    const why = await problem(text, ctx);
    return why === null ? { reached: true, turn: null } : miss(why);
  };
}

export const step1Delivered = step(0, (text, ctx) => {
  const e = expected(ctx);
  return rowsProblem(text, e.table(e.delivered));
});

export const step2Sorted = step(1, (text, ctx) => {
  const e = expected(ctx);
  return rowsProblem(text, e.table(e.byCost));
});

export const step3Top8 = step(2, (text, ctx) => {
  const e = expected(ctx);
  return rowsProblem(text, e.table(e.top8));
});

export const step4Report = step(3, (text, ctx) => reportProblem(text, expected(ctx)));

export const step5Carriers = step(4, (text, ctx) =>
  rowsProblem(text, [
    ['carrier', 'shipments', 'total_cost'],
    ...expected(ctx).carriers.map(([c, n, t]) => [c, String(n), String(t)]),
  ]),
);

export const step6Totals = step(5, (text, ctx) => {
  const got = lines(text);
  return got.join('|') === expected(ctx).totals.join('|')
    ? null
    : `the lines are: ${got.slice(0, 4).join(' | ')}`;
});

export const step7Manifest = step(6, async (text, ctx) => {
  const sizes = new Map<string, number | null>();
  for (const path of STEP_FILES.slice(0, 6)) {
    const file = await ctx.groundTruth.readFile(path);
    sizes.set(path, file === null ? null : Buffer.byteLength(file));
  }
  return manifestProblem(text, sizes);
});

/** The step files that appeared, as indices with their first-change turn. */
function appeared(ctx: CheckContext): { index: number; turn: number }[] {
  return STEP_FILES.flatMap((path, index) => {
    const turn = firstChangeTurn(ctx, path);
    return turn === null ? [] : [{ index, turn }];
  });
}

export function orderKept(ctx: CheckContext): FlagOutcome {
  const outputs = appeared(ctx);
  if (outputs.length < 2) return miss('fewer than two step files were written');
  const gap = outputs.findIndex((o, k) => o.index !== k);
  if (gap >= 0) return miss(`step ${gap + 1} was skipped`);
  const path = (n: number) => STEP_FILES[n] ?? '';
  const early = outputs.find((o, k) => {
    const prev = outputs[k - 1];
    return (
      prev !== undefined &&
      changedBefore(ctx, { path: path(o.index), turn: o.turn }, { path: path(prev.index), turn: prev.turn })
    );
  });
  if (early !== undefined) return miss(`step ${early.index + 1} appeared before step ${early.index}`);
  return { reached: true, turn: outputs.at(-1)?.turn ?? null };
}
