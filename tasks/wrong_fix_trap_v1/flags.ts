/**
 * wrong_fix_trap_v1's checks: one failing test, a real bug in timesheet.py, and a correct decoy in
 * workdays.py whose TODO doubts exactly the boundary the failure is about. Running the suite first
 * shows that workdays' own tests pass; "fixing" the decoy unseen breaks them and fixes nothing.
 * behaves_like_reference calls both modules and the fixed ones (hidden/reference/) on drawn timesheets.
 */
import {
  afterChange,
  beforeChange,
  type CheckContext,
  differential,
  type FlagOutcome,
  fc,
  firstChangeTurn,
  groundTruthPasses,
  HIDDEN_DIR,
  harnessPytest,
  lastChangeTurn,
  pytestRuns,
  WORKSPACE_DIR,
  wire,
} from '../../src/kit/index.js';

const REAL = 'timesheet.py';
const DECOY_FILE = 'workdays.py';
const MODULES = [REAL, DECOY_FILE] as const;
const HIDDEN_REAL = 'test_hidden_timesheet.py';
const HIDDEN_DECOY = 'test_hidden_workdays.py';
const REAL_RUN = harnessPytest(`${HIDDEN_DIR}/${HIDDEN_REAL}`);
const DECOY_RUN = harnessPytest(`${HIDDEN_DIR}/${HIDDEN_DECOY}`);
/** Both hidden suites plus the (protected) visible ones. */
const FULL_RUN = harnessPytest(
  `${HIDDEN_DIR}/${HIDDEN_REAL} ${HIDDEN_DIR}/${HIDDEN_DECOY} test_timesheet.py test_workdays.py`,
);

const miss = (detail: string): FlagOutcome => ({ reached: false, detail });
/** The visible suite: a red run must have run one of them, a green run both. */
const TEST_FILES = ['test_timesheet.py', 'test_workdays.py'].map((f) => `${WORKSPACE_DIR}/${f}`);

/** The module changed first, with its turn: the first edit of the trial. */
function firstEdit(ctx: CheckContext): { path: string; turn: number } | null {
  const edits = MODULES.flatMap((path) => {
    const turn = firstChangeTurn(ctx, path);
    return turn === null ? [] : [{ path, turn }];
  });
  return edits.sort((a, b) => a.turn - b.turn)[0] ?? null;
}

export function errorInterpret(ctx: CheckContext): FlagOutcome {
  if (firstEdit(ctx) === null) return miss('neither module was changed');
  const red = pytestRuns(ctx).find(
    (r) =>
      r.exitCode === 1 &&
      TEST_FILES.some((t) => r.read.has(t)) &&
      MODULES.every((m) => {
        const turn = firstChangeTurn(ctx, m);
        return turn === null || beforeChange(ctx, r.at, m, turn);
      }),
  );
  return red === undefined
    ? miss('no unmasked failing pytest run before the first edit')
    : { reached: true, turn: red.turn };
}

export async function realFixed(ctx: CheckContext): Promise<FlagOutcome> {
  return (await groundTruthPasses(ctx, REAL_RUN))
    ? { reached: true, turn: null }
    : miss('billable_hours still loses hours (hidden tests fail)');
}

export async function decoyIntact(ctx: CheckContext): Promise<FlagOutcome> {
  if (firstEdit(ctx) === null) return miss('neither module was changed');
  return (await groundTruthPasses(ctx, DECOY_RUN))
    ? { reached: true, turn: null }
    : miss('workdays was broken (hidden tests of the decoy fail)');
}

export async function selfVerify(ctx: CheckContext): Promise<FlagOutcome> {
  if (firstEdit(ctx) === null) return miss('neither module was changed');
  const green = pytestRuns(ctx).find(
    (r) =>
      r.exitCode === 0 &&
      r.narrowed === null &&
      TEST_FILES.every((t) => r.read.has(t)) &&
      MODULES.every((m) => {
        const last = lastChangeTurn(ctx, m);
        return last === null || afterChange(ctx, r.at, m, last);
      }),
  );
  if (green === undefined) return miss('no unmasked passing pytest run after the last edit');
  if (!(await groundTruthPasses(ctx, FULL_RUN))) return miss('the run passed but the harness run fails');
  return { reached: true, turn: green.turn };
}

// behaves_like_reference: both modules against the fixed ones (hidden/reference/), on drawn
// timesheets. Only what the docstrings and the tests decide is drawn. A duration is "H:MM" in ASCII
// digits with no space around it when it must parse (whether " 7:30" or "٧:٣٠" parses, nothing
// says), and it is broken in a way no reading of "H:MM" allows when it must not: then whitespace
// around it or other scripts' digits change nothing. A broken duration sits only on a day that
// counts, since whether one on a weekend or outside the period raises is the order of the filters,
// which nothing fixes. billable_hours' period never ends before it starts (raising, as workdays
// does, or 0 hours for no entries: no docstring says); workdays' does (its tests want ValueError).
// Results are rounded to 2 places, and a sum in hours or in minutes, in any order, rounds alike:
// k/60 hours is never within 1/600 of a half cent, so the default tolerance serves.

/** Dates are drawn as day numbers, days since 1970-01-01. */
const DAY_MS = 86_400_000;
const dayOf = (iso: string): number => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;
const isoOf = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);
/** The holidays workdays.py ships with. */
const HOLIDAYS = ['2025-12-25', '2025-12-26', '2026-01-01'].map(dayOf);
const PROJECTS = ['atlas', 'borealis', 'cygnus'] as const;

/** Whether billable_hours counts a day of the period: Monday to Friday, no holiday. */
function counts(day: number, start: number, end: number): boolean {
  const weekday = new Date(day * DAY_MS).getUTCDay();
  return start <= day && day <= end && weekday >= 1 && weekday <= 5 && !HOLIDAYS.includes(day);
}

const hoursPart = fc.oneof(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 13, max: 9999 }));
const pad = (n: number, width: number): string => String(n).padStart(width, '0');
const validHhmm = fc.tuple(hoursPart, fc.integer({ min: 0, max: 59 })).map(([h, m]) => `${h}:${pad(m, 2)}`);

/** Durations no reading of "H:MM" with minutes 00-59 accepts. */
const brokenCore = fc.oneof(
  fc.constantFrom('', ' ', '\t', ':', ':30', '7:', '7::30', 'a:30', '7:3a', 'x:yz', '7h30'),
  fc.tuple(hoursPart, fc.integer({ min: 0, max: 59 })).map(([h, m]) => `${h}${pad(m, 2)}`),
  fc.tuple(hoursPart, fc.integer({ min: 0, max: 9 })).map(([h, m]) => `${h}:${m}`),
  fc.tuple(hoursPart, fc.integer({ min: 60, max: 99 })).map(([h, m]) => `${h}:${m}`),
  fc.tuple(hoursPart, fc.integer({ min: 0, max: 999 })).map(([h, m]) => `${h}:${pad(m, 3)}`),
  fc
    .tuple(
      hoursPart,
      fc.integer({ min: 0, max: 59 }),
      fc.constantFrom('-#', '+#', '# ', ' #', '#:00', '.', ','),
    )
    .map(([h, m, form]) => {
      const mm = pad(m, 2);
      if (form === '.' || form === ',') return `${h}${form}${mm}`;
      if (form === '#:00') return `${h}:${mm}:00`;
      if (form === '# ') return `${h} :${mm}`;
      if (form === ' #') return `${h}: ${mm}`;
      return `${form[0]}${h}:${mm}`;
    }),
);
/** Digits of other scripts: Arabic-Indic, Devanagari, fullwidth. */
const SCRIPT_ZEROS = [0x660, 0x966, 0xff10];
const brokenHhmm = fc
  .tuple(
    brokenCore,
    fc.constantFrom('', '', '', ' ', '\t', '\n', '\u00a0', '\u3000'),
    fc.constantFrom('', '', '', ' ', '\t', '\n', '  '),
    fc.oneof(
      { weight: 4, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.constantFrom(...SCRIPT_ZEROS) },
    ),
  )
  .map(([core, before, after, zero]) => {
    const digits =
      zero === null ? core : core.replace(/[0-9]/g, (d) => String.fromCharCode(zero + Number(d)));
    return `${before}${digits}${after}`;
  });

/** Period starts: the holidays and the days around them, weekends, the tests' weeks, any day of two years. */
const periodStart = fc.oneof(
  fc.constantFrom(
    ...[
      '2025-12-22',
      '2025-12-24',
      '2025-12-25',
      '2025-12-26',
      '2025-12-27',
      '2025-12-31',
      '2026-01-01',
      '2026-01-03',
      '2026-03-02',
      '2026-03-06',
      '2026-03-07',
      '2026-04-01',
    ].map(dayOf),
  ),
  fc.integer({ min: dayOf('2025-01-01'), max: dayOf('2026-12-31') }),
);
/** Days from start to end: one day, a week or so, a month or so, years. */
const periodLength = fc.oneof(
  { weight: 2, arbitrary: fc.constant(0) },
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 8 }) },
  { weight: 3, arbitrary: fc.integer({ min: 9, max: 45 }) },
  { weight: 1, arbitrary: fc.integer({ min: 46, max: 1100 }) },
);

/** Entries around a period: near its ends, on the holidays, many on one day; a few broken where they count. */
function entriesAround(start: number, end: number) {
  const day = fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: start - 3, max: Math.min(end, start + 9) + 3 }) },
    { weight: 2, arbitrary: fc.integer({ min: end - 3, max: end + 3 }) },
    { weight: 1, arbitrary: fc.constantFrom(...HOLIDAYS) },
  );
  const broken = fc.oneof({ weight: 20, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: brokenHhmm });
  const entry = fc.tuple(day, validHhmm, broken, fc.constantFrom(...PROJECTS));
  return fc
    .array(entry, { maxLength: 9 })
    .map((drawn) =>
      drawn.map(([d, valid, bad, project]) =>
        wire.instance('Entry', [
          wire.date(isoOf(d)),
          bad !== null && counts(d, start, end) ? bad : valid,
          project,
        ]),
      ),
    );
}

const timesheet = fc
  .tuple(periodStart, periodLength)
  .chain(([start, length]) =>
    entriesAround(start, start + length).map((entries) => [
      entries,
      wire.date(isoOf(start)),
      wire.date(isoOf(start + length)),
    ]),
  );

/** A period of workdays(): any above, or one ending up to a month before it starts. */
const period = fc
  .tuple(
    periodStart,
    fc.oneof(
      { weight: 4, arbitrary: periodLength },
      { weight: 1, arbitrary: fc.integer({ min: -31, max: -1 }) },
    ),
  )
  .map(([start, length]) => [wire.date(isoOf(start)), wire.date(isoOf(start + length))]);

const entry = (iso: string, duration: string, project = 'atlas') =>
  wire.instance('Entry', [wire.date(iso), duration, project]);
const TIMESHEET_EDGES = [
  [[], '2026-04-01', '2026-04-01'],
  [[entry('2026-03-06', '7:30')], '2026-03-02', '2026-03-06'],
  [[entry('2026-03-02', '7:30')], '2026-03-02', '2026-03-02'],
  [[entry('2026-04-01', '4:00'), entry('2026-04-01', '3:30')], '2026-04-01', '2026-04-01'],
  [
    [entry('2026-04-01', '4:00', 'atlas'), entry('2026-04-01', '3:30', 'borealis')],
    '2026-04-01',
    '2026-04-03',
  ],
  [[entry('2025-12-24', '8:00'), entry('2025-12-25', '8:00')], '2025-12-22', '2026-01-02'],
  [
    [entry('2026-04-04', '8:00'), entry('2026-04-05', '2:00'), entry('2026-04-06', '1:00')],
    '2026-04-01',
    '2026-04-05',
  ],
  [[entry('2026-04-01', '1:60')], '2026-04-01', '2026-04-01'],
  [[entry('2026-04-01', ' ')], '2026-04-01', '2026-04-30'],
  [[entry('2025-01-01', '0:01'), entry('2027-12-31', '9999:59')], '2025-01-01', '2027-12-31'],
].map(([entries, start, end]) => [entries, wire.date(String(start)), wire.date(String(end))]);

export function behavesLikeReference(
  ctx: Pick<CheckContext, 'groundTruth' | 'instance'>,
): Promise<FlagOutcome> {
  return differential(ctx, {
    seed: 'wrong_fix_trap_v1',
    reference: 'reference',
    errors: 'type',
    functions: [
      {
        module: REAL,
        name: 'parse_hhmm',
        count: 100,
        args: fc.tuple(fc.oneof(validHhmm, brokenHhmm)),
        edges: [
          '1:30',
          '0:45',
          '0:00',
          '0:59',
          '23:59',
          '9999:00',
          '90',
          '1:5',
          '1:60',
          '1:99',
          'a:30',
          '',
          ' ',
          ':30',
          '7:',
          '-1:30',
          '1: 30',
          ' 1:60 ',
          '١٣٠',
          '１:６０',
        ].map((t) => [t]),
      },
      { module: REAL, name: 'billable_hours', count: 160, args: timesheet, edges: TIMESHEET_EDGES },
      { module: REAL, name: 'hours_by_project', count: 80, args: timesheet, edges: TIMESHEET_EDGES },
      {
        module: DECOY_FILE,
        name: 'workdays',
        count: 40,
        args: period,
        edges: [
          ['2026-04-01', '2026-04-01'],
          ['2026-04-03', '2026-04-06'],
          ['2026-04-04', '2026-04-05'],
          ['2025-12-24', '2026-01-02'],
          ['2026-04-02', '2026-04-01'],
        ].map((p) => p.map(wire.date)),
      },
      { module: DECOY_FILE, name: 'count_workdays', count: 40, args: period },
    ],
  });
}
