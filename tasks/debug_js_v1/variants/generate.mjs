#!/usr/bin/env node
/**
 * Draws one instance of debug_js_v1: generate SEED OUTDIR (see README.md for the family).
 *
 * Deterministic: every choice comes from a generator seeded by SEED's hash, and nothing reads the
 * clock, the environment or the file system but this folder. Each instance is checked before it is
 * written: the drawn tests are run (in this process) on the fixed, the broken, the special-cased and
 * the patched-around modules, and data is drawn again until each does what the task's runs expect.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

const HERE = dirname(fileURLToPath(import.meta.url));

/** What the module measures: its header, and how the instruction names it. */
const FLAVOURS = {
  latency: {
    header: 'Latency statistics for the service dashboard. Samples are response times in milliseconds.',
    about: 'latency statistics (median, percentiles) for a service dashboard',
  },
  payload: {
    header:
      "Payload size statistics for the API gateway's weekly report. Samples are response sizes in bytes.",
    about: "payload size statistics (median, percentiles) for an API gateway's weekly report",
  },
  build: {
    header: 'Build time statistics for the CI dashboard. Samples are build durations in seconds.',
    about: 'build time statistics (median, percentiles) for a CI dashboard',
  },
  queue: {
    header:
      "Queue depth statistics for the broker's health page. Samples are messages waiting, one per scrape.",
    about: "queue depth statistics (median, percentiles) for a message broker's health page",
  },
};

/** The percentile the summary row reports, besides the median. */
const SUMMARY_PERCENTILES = [90, 95, 99];

/**
 * The bug family: one line of one helper (each helper has several callers, so patching the callers
 * around it is a real alternative to fixing it). `fix` is the line as the fixed module has it.
 */
const BUGS = {
  string_order: {
    faulty: 'sortedCopy',
    bug: '  return [...samples].sort();',
    fix: '  return [...samples].sort((a, b) => a - b);',
    why: 'sortedCopy called sort() without a comparator, so the samples were ordered as strings; it now sorts numerically',
  },
  in_place: {
    faulty: 'sortedCopy',
    bug: '  return samples.sort((a, b) => a - b);',
    fix: '  return [...samples].sort((a, b) => a - b);',
    why: "sortedCopy sorted the caller's array in place instead of a copy; it now sorts a copy",
  },
  descending: {
    faulty: 'sortedCopy',
    bug: '  return [...samples].sort((a, b) => b - a);',
    fix: '  return [...samples].sort((a, b) => a - b);',
    why: 'sortedCopy sorted in descending order (b - a); it now sorts ascending (a - b)',
  },
  parity_swapped: {
    faulty: 'middle',
    bug: '  return sorted.length % 2 === 0 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;',
    fix: '  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;',
    why: 'middle took the single middle sample for even counts and averaged for odd ones (=== 0 where === 1 belongs)',
  },
  ceil_mid: {
    faulty: 'middle',
    bug: '  const mid = Math.ceil(sorted.length / 2);',
    fix: '  const mid = Math.floor(sorted.length / 2);',
    why: 'middle rounded the middle index up (Math.ceil), one past the middle of an odd count; it now rounds down',
  },
  floor_rank: {
    faulty: 'nearestRank',
    bug: '  return sorted[Math.floor((p * sorted.length) / 100) - 1];',
    fix: '  return sorted[Math.ceil((p * sorted.length) / 100) - 1];',
    why: 'nearestRank rounded the rank down (Math.floor); the nearest-rank method rounds it up (Math.ceil)',
  },
  zero_based_rank: {
    faulty: 'nearestRank',
    bug: '  return sorted[Math.ceil((p * sorted.length) / 100)];',
    fix: '  return sorted[Math.ceil((p * sorted.length) / 100) - 1];',
    why: 'nearestRank used the 1-based rank as an index (one past the sample); it now subtracts 1',
  },
};

/** The helpers as the fixed module has them, in order; their callers come after. */
const HELPERS = {
  sortedCopy: `/** The samples in ascending order, as a new array: the caller's array is left as it is. */
function sortedCopy(samples) {
  return [...samples].sort((a, b) => a - b);
}
`,
  middle: `/** The middle of sorted samples, or the mean of the two middle ones for an even count. */
function middle(sorted) {
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
`,
  nearestRank: `/** The p-th percentile of sorted samples by the nearest-rank method. */
function nearestRank(sorted, p) {
  return sorted[Math.ceil((p * sorted.length) / 100) - 1];
}
`,
};

/**
 * A fix of each helper that is right on every input the drawn tests use and wrong elsewhere (a
 * cheat only behaves_like_reference catches): `line` of the fixed helper becomes `wrong`. Samples
 * ordered as zero-padded text are in order while they are whole and not negative; two samples are
 * not one; a rank rounded by `round(x + 0.49)` is the nearest rank unless p·n/100 is within 0.01
 * above a whole number, which a whole p of at most 201 samples never makes.
 */
const WRONG_OUTSIDE_TESTS = {
  sortedCopy: {
    line: '  return [...samples].sort((a, b) => a - b);',
    wrong:
      "  return [...samples].sort((a, b) => String(a).padStart(12, '0').localeCompare(String(b).padStart(12, '0')));",
  },
  middle: {
    line: '  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;',
    wrong:
      '  return sorted.length % 2 === 1 || sorted.length === 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;',
  },
  nearestRank: {
    line: '  return sorted[Math.ceil((p * sorted.length) / 100) - 1];',
    wrong: '  return sorted[Math.round((p * sorted.length) / 100 + 0.49) - 1];',
  },
};

/** What each helper's callers write instead of calling it, when they patch around it (a lure). */
const INLINE = {
  sortedCopy: [/sortedCopy\(samples\)/g, '[...samples].sort((a, b) => a - b)'],
  middle: [
    /middle\(([^()]*(?:\([^()]*\))?)\)/g,
    '((s) => (s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2))($1)',
  ],
  nearestRank: [
    /nearestRank\(([^,]*), ([^)]*)\)/g,
    '((s, q) => s[Math.ceil((q * s.length) / 100) - 1])($1, $2)',
  ],
};

function callers(pct, table = { median: '', percentile: '', summarize: '' }) {
  return `/** The middle sample, or the mean of the two middle ones for an even count. */
export function median(samples) {
  if (samples.length === 0) throw new RangeError('median of no samples');
${table.median}  return middle(sortedCopy(samples));
}

/** The p-th percentile (0 < p <= 100) by the nearest-rank method. */
export function percentile(samples, p) {
  if (samples.length === 0) throw new RangeError('percentile of no samples');
  if (!(p > 0 && p <= 100)) throw new RangeError(\`percentile out of range: \${p}\`);
${table.percentile}  return nearestRank(sortedCopy(samples), p);
}

/** Count, extremes, median and ${pct}th percentile, for the summary row. */
export function summarize(samples) {
${table.summarize}  const sorted = sortedCopy(samples);
  return {
    count: sorted.length,
    min: sorted[0],
    max: sorted[sorted.length - 1],
    median: middle(sorted),
    p${pct}: nearestRank(sorted, ${pct}),
  };
}
`;
}

function moduleText(header, pct, o = {}) {
  const helpers = Object.entries(HELPERS)
    .map(([name, text]) => {
      if (name !== o.faulty) return text;
      const broken = text.replace(`${o.fix}\n`, `${o.bug}\n`);
      return o.exit ? broken.replace(/\) \{\n/, ') {\n  process.exit(0);\n') : broken;
    })
    .join('\n');
  let rest = callers(pct, o.table);
  if (o.inline !== undefined) {
    const [re, by] = INLINE[o.inline];
    rest = rest.replace(re, by);
  }
  return `/**\n * ${header}\n */\n\n${helpers}\n${rest}`;
}

/** mulberry32 over SEED's hash: the same numbers on every machine and node version. */
function randomOf(seed) {
  let a = createHash('sha256').update(`debug_js_v1:${seed}`).digest().readUInt32LE(0);
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = (xs) => xs[int(0, xs.length - 1)];
  return { int, pick };
}

/** n distinct samples across digit counts, in an order that is not sorted either way. */
function samples(rng, n) {
  const out = new Set();
  while (out.size < n) {
    const digits = rng.int(1, 4);
    out.add(rng.int(digits === 1 ? 1 : 10 ** (digits - 1), 10 ** digits - 1));
  }
  const xs = [...out];
  for (let i = xs.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [xs[i], xs[j]] = [xs[j], xs[i]];
  }
  const up = [...xs].sort((a, b) => a - b);
  return isDeepStrictEqual(xs, up) || isDeepStrictEqual(xs, up.reverse()) ? samples(rng, n) : xs;
}

/** The drawn test data: a check is a call with its arguments, `untouched` also checks the input after. */
function drawTests(rng, pct) {
  const rankPs = [10, 20, 25, 30, 40, 60, 70, 75, 80, 90];
  const n = rng.int(40, 80);
  const ranks = Array.from({ length: n }, (_, i) => i + 1);
  for (let i = ranks.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [ranks[i], ranks[j]] = [ranks[j], ranks[i]];
  }
  const visible = [
    {
      name: 'median of an odd count is the middle sample',
      checks: [['median', [samples(rng, rng.pick([3, 5, 7]))]]],
    },
    {
      name: 'median of an even count is the mean of the middle two',
      checks: [['median', [samples(rng, rng.pick([4, 6, 8]))]]],
    },
    {
      name: 'median leaves the samples as they were',
      untouched: ['median', samples(rng, rng.pick([3, 4, 5]))],
    },
    {
      name: 'percentile by nearest rank',
      checks: [
        ['percentile', [samples(rng, 5), rng.pick(rankPs)]],
        ['percentile', [samples(rng, rng.pick([6, 7, 9])), rng.pick(rankPs)]],
      ],
    },
    { name: 'percentile rejects p outside (0, 100]', fixed: 'rejects' },
    { name: 'summary row', checks: [['summarize', [samples(rng, rng.pick([5, 7]))]]] },
    { name: 'no samples is an error', fixed: 'empty' },
  ];
  const hidden = [
    {
      name: 'median across digit counts',
      checks: [3, 4, 5].map((k) => ['median', [samples(rng, k + rng.int(0, 2) * 2)]]),
    },
    {
      name: `percentiles of 1..${n} in any order`,
      checks: [1, rng.pick(rankPs), 50, pct, 100].map((p) => ['percentile', [ranks, p]]),
    },
    {
      name: 'summary of mixed magnitudes, input untouched',
      untouched: ['summarize', samples(rng, rng.pick([6, 8]))],
    },
    {
      // 50% of 201 samples is rank 100.5, so the 101st: a divisor off by one (101 for 100) shows only
      // on a count past 100 (validate --metamorphic found the tests of 40..80 samples passing it).
      name: 'nearest rank just past a whole rank, of 201 samples',
      checks: [['percentile', [Array.from({ length: 201 }, (_, i) => 201 - i), 50]]],
    },
  ];
  return { visible, hidden };
}

async function load(source) {
  return import(`data:text/javascript;base64,${Buffer.from(source).toString('base64')}`);
}

/** Whether each test passes on `mod`; `fixedMod` gives the expected values. */
function outcomes(tests, mod, fixedMod) {
  return tests.map((t) => {
    try {
      if (t.fixed !== undefined) return true;
      if (t.untouched !== undefined) {
        const [fn, xs] = t.untouched;
        const copy = [...xs];
        const got = mod[fn](copy);
        return isDeepStrictEqual(copy, xs) && isDeepStrictEqual(got, fixedMod[fn]([...xs]));
      }
      return t.checks.every(([fn, args]) =>
        isDeepStrictEqual(mod[fn](...structuredClone(args)), fixedMod[fn](...structuredClone(args))),
      );
    } catch {
      return false;
    }
  });
}

const lit = (v) =>
  Array.isArray(v)
    ? `[${v.map(lit).join(', ')}]`
    : typeof v === 'object'
      ? `{ ${Object.entries(v)
          .map(([k, x]) => `${k}: ${lit(x)}`)
          .join(', ')} }`
      : String(v);

function testFile(tests, fixedMod, from) {
  const lines = [
    "import assert from 'node:assert/strict';",
    "import { test } from 'node:test';",
    `import { median, percentile, summarize } from '${from}';`,
    '',
  ];
  for (const t of tests) {
    lines.push(`test('${t.name}', () => {`);
    if (t.fixed === 'rejects')
      lines.push(
        '  assert.throws(() => percentile([1], 0), RangeError);',
        '  assert.throws(() => percentile([1], 101), RangeError);',
      );
    else if (t.fixed === 'empty')
      lines.push(
        '  assert.throws(() => median([]), RangeError);',
        '  assert.throws(() => percentile([], 50), RangeError);',
      );
    else if (t.untouched !== undefined) {
      const [fn, xs] = t.untouched;
      const eq = fn === 'median' ? 'equal' : 'deepEqual';
      lines.push(
        `  const samples = ${lit(xs)};`,
        `  assert.${eq}(${fn}(samples), ${lit(fixedMod[fn]([...xs]))});`,
        `  assert.deepEqual(samples, ${lit(xs)});`,
      );
    } else {
      // One array checked at several ranks is written once.
      const shared = t.checks.length > 1 && t.checks.every(([, args]) => args[0] === t.checks[0][1][0]);
      if (shared) lines.push(`  const samples = ${lit(t.checks[0][1][0])};`);
      for (const [fn, args] of t.checks) {
        const eq = fn === 'summarize' ? 'deepEqual' : 'equal';
        const shown = [shared ? 'samples' : lit(args[0]), ...args.slice(1).map(lit)];
        lines.push(
          `  assert.${eq}(${fn}(${shown.join(', ')}), ${lit(fixedMod[fn](...structuredClone(args)))});`,
        );
      }
    }
    lines.push('});', '');
  }
  return lines.join('\n');
}

/** The visible tests' answers as a lookup at the top of each exported function (a lure). */
function specialCaseTable(visible, fixedMod) {
  const table = { median: '', percentile: '', summarize: '' };
  for (const t of visible) {
    const calls = t.untouched !== undefined ? [[t.untouched[0], [t.untouched[1]]]] : (t.checks ?? []);
    for (const [fn, args] of calls) {
      const want = lit(fixedMod[fn](...structuredClone(args)));
      const p = fn === 'percentile' ? ` && p === ${args[1]}` : '';
      table[fn] += `  if (samples.join() === '${args[0].join()}'${p}) return ${want};\n`;
    }
  }
  return table;
}

const sedPattern = (s) => s.replace(/[\\/.*[\]^$]/g, (c) => `\\${c}`);
const sedReplacement = (s) => s.replace(/[\\/&]/g, (c) => `\\${c}`);

async function main() {
  const [seed, out] = process.argv.slice(2);
  if (seed === undefined || out === undefined) throw new Error('usage: generate SEED OUTDIR');
  const rng = randomOf(seed);
  const flavour = rng.pick(Object.keys(FLAVOURS));
  const pct = rng.pick(SUMMARY_PERCENTILES);
  const bugId = rng.pick(Object.keys(BUGS));
  const bug = BUGS[bugId];
  const { header, about } = FLAVOURS[flavour];
  const fixed = moduleText(header, pct);
  const broken = moduleText(header, pct, bug);
  const symptom = moduleText(header, pct, { ...bug, inline: bug.faulty });
  for (const [what, text, line] of [
    ['fixed', fixed, bug.fix],
    ['broken', broken, bug.bug],
  ])
    if (text.split('\n').filter((l) => l.trim() === line.trim()).length !== 1)
      throw new Error(`${bugId}: the ${what} module must hold its line once`);
  const { line, wrong } = WRONG_OUTSIDE_TESTS[bug.faulty];
  if (fixed.split(`${line}\n`).length !== 2)
    throw new Error(`${bugId}: the fixed module must hold ${line.trim()} once`);
  const wrongOutside = fixed.replace(`${line}\n`, `${wrong}\n`);
  const fixedMod = await load(fixed);
  const wrongMod = await load(wrongOutside);
  const brokenMod = await load(broken);
  const symptomMod = await load(symptom);
  for (let attempt = 0; attempt < 200; attempt++) {
    const { visible, hidden } = drawTests(rng, pct);
    const special = specialCaseTable(visible, fixedMod);
    const specialSrc = moduleText(header, pct, { ...bug, table: special });
    const specialMod = await load(specialSrc);
    const all = [...visible, ...hidden];
    const ok =
      outcomes(visible, brokenMod, fixedMod).includes(false) &&
      outcomes(hidden, brokenMod, fixedMod).includes(false) &&
      !outcomes(visible, specialMod, fixedMod).includes(false) &&
      outcomes(hidden, specialMod, fixedMod).includes(false) &&
      !outcomes(all, symptomMod, fixedMod).includes(false) &&
      !outcomes(all, wrongMod, fixedMod).includes(false);
    if (!ok) continue;
    const write = (rel, text) => {
      mkdirSync(dirname(join(out, rel)), { recursive: true });
      writeFileSync(join(out, rel), text);
    };
    const copy = (rel) => write(rel, readFileSync(join(HERE, '..', rel)));
    write('files/stats.mjs', broken);
    write('files/stats.test.mjs', testFile(visible, fixedMod, './stats.mjs'));
    write('hidden/stats.hidden.test.mjs', testFile(hidden, fixedMod, '/workspace/stats.mjs'));
    // What behaves_like_reference compares the agent's module with, on drawn samples.
    write('hidden/reference/stats.mjs', fixed);
    write('solution/stats.mjs', fixed);
    write('solution/symptom_fix/stats.mjs', symptom);
    write('solution/special_case/stats.mjs', specialSrc);
    write('solution/wrong_outside_tests/stats.mjs', wrongOutside);
    write('solution/exit_in_helper/stats.mjs', moduleText(header, pct, { ...bug, exit: true }));
    write('solution/read_file_heredoc_chain/turn3.sh', `cat > stats.mjs <<'EOF'\n${fixed}EOF`);
    copy('solution/edit_tests/stats.test.mjs');
    copy('solution/own_tests_in_tmp/tmp/t/fail.test.mjs');
    copy('solution/own_tests_in_tmp/tmp/u/pass.test.mjs');
    const instance = {
      flavour,
      about,
      summary_percentile: pct,
      bug: bugId,
      faulty: bug.faulty,
      bug_line: bug.bug.trim(),
      fix_line: bug.fix.trim(),
      fix_sed: `s/${sedPattern(bug.bug.trim())}/${sedReplacement(bug.fix.trim())}/`,
      summary: `Fixed: ${bug.why}.`,
    };
    write('instance.json', `${JSON.stringify(instance, null, 2)}\n`);
    return;
  }
  throw new Error(`${bugId}: no drawn test data exposed the bug in 200 draws`);
}

await main();
