/**
 * debug_python_v1's check that needs code: parse_duration and format_duration agree with the
 * instance's fixed module (hidden/reference/durations.py) on texts and numbers drawn from the
 * instance's unit table and limit. Only inputs the docstrings decide are drawn: surrounding
 * whitespace is ASCII (what `strip()` removes beyond it is no promise of theirs), and no digit is
 * other than 0-9 (Python's `\d` takes other scripts' digits, which no rule here asks for).
 */
import { type CheckContext, differential, type FlagOutcome, fc } from '../../src/kit/index.js';

const MODULE = 'durations.py';
/** Every unit letter a table may hold, and its size in seconds. */
const SIZES: Readonly<Record<string, number>> = { w: 604_800, d: 86_400, h: 3600, m: 60, s: 1 };

/** The instance's units, largest first, and its limit (none in the folder's own module). */
function tableOf(instance: Readonly<Record<string, unknown>>): { units: string[]; limit: number | null } {
  const letters = typeof instance.units === 'string' ? instance.units : 'dhms';
  const units = [...letters].filter((u) => SIZES[u] !== undefined);
  return { units, limit: typeof instance.max_seconds === 'number' ? instance.max_seconds : null };
}

/** Seconds as the formatter writes them: 5400 -> "1h30m". */
function textOf(units: readonly string[], seconds: number): string {
  let rest = seconds;
  const parts: string[] = [];
  for (const u of units) {
    const size = SIZES[u] ?? 1;
    if (rest >= size) parts.push(`${Math.floor(rest / size)}${u}`);
    rest %= size;
  }
  return parts.join('') || '0s';
}

const amount = fc.oneof(
  fc.integer({ min: 0, max: 99 }),
  fc.constantFrom(1, 7, 23, 24, 59, 60, 61),
  fc.integer({ min: 100, max: 10_000_000 }),
);
const edgeSpace = fc.constantFrom('', '', ' ', '  ', '\t', '\n', ' \t ');

/** A duration the parser must accept: units in order, each once, any case, ASCII space around. */
function validText(units: readonly string[]) {
  return fc
    .tuple(
      fc.subarray([...units], { minLength: 1 }),
      fc.array(amount, { minLength: units.length, maxLength: units.length }),
      fc.array(fc.boolean(), { minLength: units.length, maxLength: units.length }),
      edgeSpace,
      edgeSpace,
    )
    .map(([picked, amounts, upper, before, after]) => {
      const core = picked.map((u, i) => `${amounts[i]}${upper[i] ? u.toUpperCase() : u}`).join('');
      return `${before}${core}${after}`;
    });
}

/** Characters that break a duration inside it: spaces in a token, signs, decimals, other scripts. */
const breaker = fc.constantFrom(
  ' ',
  '\t',
  '-',
  '+',
  '.',
  ',',
  ':',
  '_',
  'x',
  'é',
  'ħ',
  '中',
  '😀',
  '\u00a0',
  '\u200b',
);

/** A valid duration broken once, inside it: a character put in, a token repeated or moved, a part cut. */
function brokenText(units: readonly string[]) {
  return fc.tuple(validText(units), fc.nat(), fc.nat(), breaker).map(([text, a, b, ch]) => {
    const core = text.trim();
    const tokens = core.match(/\d+[a-z]/gi) ?? [];
    const at = 1 + (a % Math.max(1, core.length - 1));
    switch (b % 5) {
      case 0:
        return `${core.slice(0, at)}${ch}${core.slice(at)}`;
      case 1:
        return `${core}${tokens[a % Math.max(1, tokens.length)] ?? ''}`;
      case 2:
        return [...tokens].reverse().join('');
      case 3:
        return core.replace(/\d+/, '');
      default:
        return core.replace(/[a-z]$/i, '');
    }
  });
}

/** Anything at all, of the letters and marks a duration is made of (and ASCII space inside). */
const anyText = fc.string({ unit: fc.constantFrom(...'0123456789dhmsw DHMSW-+.x'), maxLength: 14 });

/** The texts at the instance's limit and either side of it (a huge amount when it has none). */
function limitTexts(units: readonly string[], limit: number | null): string[] {
  if (limit === null) return ['99999999999999999999s'];
  const top = units[0] ?? 'h';
  const small = units.at(-1) ?? 's';
  return [
    `${limit / (SIZES[top] ?? 1)}${top}`,
    `${limit / (SIZES[top] ?? 1)}${top}1${small}`,
    textOf(units, limit - 1),
    `${limit}s`,
    `${limit + 1}s`,
    ` ${textOf(units, limit).toUpperCase()}\t`,
  ];
}

/** Seconds to format: negatives, the instance's range, huge ones, and sums of units with amounts of 1. */
function secondsOf(units: readonly string[], limit: number | null) {
  return fc.oneof(
    fc.integer({ min: -100, max: 100 }),
    fc.integer({ min: 0, max: limit ?? 10_000_000 }),
    fc.integer({ min: 0, max: 2 ** 40 }),
    // Sums of units with amounts of 1, which a formatter dropping ones gets wrong.
    fc
      .array(fc.constantFrom(0, 1, 1, 2, 59), { minLength: units.length, maxLength: units.length })
      .map((as) => as.reduce((sum: number, n, i) => sum + n * (SIZES[units[i] ?? 's'] ?? 1), 0)),
  );
}

export function behavesLikeReference(
  ctx: Pick<CheckContext, 'groundTruth' | 'instance'>,
): Promise<FlagOutcome> {
  const { units, limit } = tableOf(ctx.instance);
  const limits = limitTexts(units, limit);
  const seconds = secondsOf(units, limit);
  return differential(ctx, {
    seed: 'debug_python_v1',
    reference: 'reference',
    errors: 'type',
    functions: [
      {
        module: MODULE,
        name: 'parse_duration',
        count: 200,
        args: fc.tuple(
          fc.oneof(
            { weight: 3, arbitrary: validText(units) },
            { weight: 3, arbitrary: brokenText(units) },
            { weight: 1, arbitrary: anyText },
          ),
        ),
        edges: [
          '',
          ' ',
          '\t\n',
          '0s',
          '45s',
          '1h 30m',
          '1 h',
          '-5s',
          '+5s',
          '1.5h',
          'hm',
          '5',
          ' 5M\t',
          ...limits,
        ].map((t) => [t]),
      },
      {
        module: MODULE,
        name: 'format_duration',
        args: fc.tuple(seconds),
        edges: [
          -1,
          0,
          1,
          59,
          60,
          61,
          3599,
          3600,
          3661,
          86_399,
          86_400,
          604_800,
          ...(limit === null ? [] : [limit, limit + 1]),
        ].map((n) => [n]),
      },
    ],
  });
}
