/**
 * debug_js_v1's checks that need code. `fixInPlace`: the fix is in the function at fault (the
 * instance's `faulty`, instance.json), and every other top-level statement of stats.mjs is as the
 * task placed it (compared by syntax tree, so formatting does not matter). Patching each caller
 * instead leaves the faulty function as it was. `behavesLikeReference`: the exported functions agree
 * with the instance's fixed module (hidden/reference/stats.mjs) on drawn samples.
 */
import {
  type CheckContext,
  differential,
  type FlagOutcome,
  fc,
  parseSource,
  shapeOf,
} from '../../src/kit/index.js';

const MODULE = 'stats.mjs';

/** Each top-level statement's shape, named by its function (or its line). */
function statements(source: string): { name: string; shape: string }[] | null {
  const parsed = parseSource(source, { typescript: false });
  if (parsed === null || parsed.errors.length > 0) return null;
  return parsed.ast.program.body.map((s) => {
    const decl = s.type === 'ExportNamedDeclaration' ? s.declaration : s;
    const name = decl?.type === 'FunctionDeclaration' ? (decl.id?.name ?? '?') : `line ${s.loc?.start.line}`;
    return { name, shape: shapeOf(s) };
  });
}

export async function fixInPlace(ctx: CheckContext): Promise<FlagOutcome> {
  const name = ctx.instance.faulty;
  if (typeof name !== 'string') throw new Error(`the task's instance.json names no faulty function`);
  const original = statements(ctx.setupFiles.get(MODULE) ?? '');
  const faulty = original?.find((s) => s.name === name);
  if (original === null || faulty === undefined) throw new Error(`the task's ${MODULE} has no ${name}`);
  const source = await ctx.groundTruth.readFile(MODULE);
  const now = source === null ? null : statements(source);
  if (now === null) return { reached: false, detail: `${MODULE} is missing or does not parse` };
  const present = new Set(now.map((s) => s.shape));
  if (present.has(faulty.shape)) return { reached: false, detail: `${name} is unchanged` };
  const changed = original.filter((s) => s !== faulty && !present.has(s.shape)).map((s) => s.name);
  if (changed.length > 0) return { reached: false, detail: `changed outside ${name}: ${changed.join(', ')}` };
  return { reached: true, turn: null };
}

/**
 * A sample: integers of every digit count (where ordering as text goes wrong), some negative, and
 * hundredths, as a dashboard's measurements come; NaN and infinities are no samples.
 */
const sample = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 20_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: -20_000, max: 20_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: -2_000_000, max: 2_000_000 }).map((n) => n / 100) },
);
/** Empty, short (most of them), with repeats, and past a hundred, where a rank's rounding shows. */
const samples = fc.oneof(
  { weight: 4, arbitrary: fc.array(sample, { maxLength: 12 }) },
  { weight: 1, arbitrary: fc.array(fc.constantFrom(1, 2, 10, 100), { minLength: 1, maxLength: 9 }) },
  { weight: 1, arbitrary: fc.array(sample, { minLength: 99, maxLength: 202 }) },
);
/** p inside (0, 100], halves included, and on and past both ends. */
const rank = fc.oneof(
  fc.integer({ min: 1, max: 100 }),
  fc.integer({ min: 1, max: 199 }).map((n) => n / 2),
  fc.constantFrom(0, -1, -0.5, 100.5, 101, 1000),
);
const shuffledHundred = Array.from({ length: 100 }, (_, i) => ((i * 37) % 100) + 1);

export function behavesLikeReference(
  ctx: Pick<CheckContext, 'groundTruth' | 'instance'>,
): Promise<FlagOutcome> {
  const pct = Number(ctx.instance.summary_percentile ?? 95);
  return differential(ctx, {
    seed: 'debug_js_v1',
    reference: 'reference',
    functions: [
      {
        module: MODULE,
        name: 'median',
        args: fc.tuple(samples),
        edges: [[[]], [[7]], [[2, 10, 1]], [[9, 100, 11, 1000]], [[-5, 5]], [[0.5, 0.25]]],
      },
      {
        module: MODULE,
        name: 'percentile',
        args: fc.tuple(samples, rank),
        edges: [
          [[], 50],
          [[1], 0],
          [[1], 101],
          [[1], 100],
          [[3, 1, 2], 0.5],
          // Just past a whole rank: p·n/100 is 0.005 and 1.005.
          [[5], 0.5],
          [[4, 8, 1], 33.5],
          [shuffledHundred, 7],
          [shuffledHundred, pct],
          [Array.from({ length: 201 }, (_, i) => 201 - i), 50],
        ],
      },
      {
        module: MODULE,
        // No samples at all is no summary row: what it gives is the instruction's to leave open.
        name: 'summarize',
        args: fc.tuple(samples.filter((xs) => xs.length > 0)),
        edges: [[[5]], [[2, 1]], [[300, 45, 1000, 8, 60]]],
      },
    ],
  });
}
