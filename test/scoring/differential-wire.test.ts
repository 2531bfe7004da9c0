import { describe, expect, it } from 'vitest';
import { differential, fc } from '../../src/kit/differential.js';
import { CHECKER_HOME } from '../../src/sandbox/types.js';
import { renderCall } from '../../src/scoring/differential-compare.js';
import { toWire, wire } from '../../src/scoring/differential-wire.js';
import { InternalError } from '../../src/util/errors.js';
import { localGroundTruth } from '../kit/local-ground-truth.js';

describe('toWire', () => {
  it('passes what wire built through as it is, nested anywhere', () => {
    expect(toWire(wire.date('2026-04-01'))).toEqual({ $date: '2026-04-01' });
    expect(toWire([wire.tuple([1, 'a', wire.date('2025-12-25')])])).toEqual([
      { $tuple: [1, 'a', { $date: '2025-12-25' }] },
    ]);
    expect(toWire({ at: wire.instance('Entry', [wire.date('2026-03-02'), '7:30', 'atlas']) })).toEqual({
      $object: { at: { $new: 'Entry', args: [{ $date: '2026-03-02' }, '7:30', 'atlas'] } },
    });
    // Tags are the runners' words: a plain object spelled like one stays a plain object.
    expect(toWire({ $date: '2026-04-01' })).toEqual({ $object: { $date: '2026-04-01' } });
  });

  it('wire.date takes calendar dates only, as Python reads them', () => {
    for (const iso of ['0001-01-01', '0050-06-30', '2024-02-29', '9999-12-31'])
      expect(toWire(wire.date(iso))).toEqual({ $date: iso });
    for (const bad of [
      '2026-02-29',
      '2026-13-01',
      '2026-04-31',
      '2026-4-1',
      '0000-01-01',
      '',
      '2026-04-01T00:00',
    ])
      expect(() => wire.date(bad), bad).toThrow(InternalError);
  });

  it('an argument of the constructors with no wire form fails where it is built', () => {
    expect(() => wire.tuple([new Map()])).toThrow(InternalError);
    expect(() => wire.instance('Entry', [Symbol('x')])).toThrow(InternalError);
  });

  it('renders as Python writes the call', () => {
    const entry = wire.instance('Entry', [wire.date('2026-03-02'), '7:30', 'atlas']);
    expect(renderCall('billable_hours', [toWire([entry]), toWire(wire.tuple([1]))], 'python')).toBe(
      "billable_hours([Entry(datetime.date(2026, 3, 2), '7:30', 'atlas')], (1,))",
    );
  });
});

const PYTHON_MODULE = `import dataclasses
import datetime


@dataclasses.dataclass(frozen=True)
class Entry:
    day: datetime.date
    hours: int


def shapes(entry, day, pair):
    return [type(entry).__name__, type(entry.day).__name__, type(day).__name__, type(pair).__name__, entry.hours, pair[1]]
`;

const NODE_MODULE = `export class Entry {
  constructor(day, hours) { this.day = day; this.hours = hours; }
}
export const shapes = (entry, day, pair) =>
  [entry.constructor.name, entry.day.toISOString(), day instanceof Date, Array.isArray(pair), entry.hours, pair[1]];
`;

describe('the wire constructors, as the runners decode them (local python3 and node)', () => {
  const check = (module: string) => ({
    seed: 'wire-test',
    reference: 'reference',
    functions: [
      {
        module,
        name: 'shapes',
        count: 5,
        args: fc
          .integer({ min: 1, max: 9 })
          .map((n) => [
            wire.instance('Entry', [wire.date(`2026-03-0${n}`), n]),
            wire.date('2025-12-25'),
            wire.tuple(['a', n]),
          ]),
      },
    ],
  });
  const judge = async (module: string, source: string, reference: string) => {
    const truth = localGroundTruth({ [module]: source }, { [`reference/${module}`]: reference });
    try {
      return await differential({ groundTruth: truth, instance: {} }, check(module));
    } finally {
      truth.cleanup();
    }
  };

  it('python: a dataclass instance of the module, datetime.date, tuple; a difference names the call', async () => {
    expect(await judge('shapes.py', PYTHON_MODULE, PYTHON_MODULE)).toMatchObject({ reached: true });
    const off = PYTHON_MODULE.replace('entry.hours, pair[1]]', 'entry.hours, pair[1], day.day]');
    const miss = await judge('shapes.py', off, PYTHON_MODULE);
    expect(miss.detail).toMatch(
      /^shapes\(Entry\(datetime\.date\(2026, 3, \d+\), \d\), datetime\.date\(2025, 12, 25\), \('a', \d\)\) returned \['Entry', 'date', 'date', 'tuple', \d, \d, 25\]; the reference returned/,
    );
  });

  it('node: an instance of the module’s class, a Date, an array', async () => {
    expect(await judge('shapes.mjs', NODE_MODULE, NODE_MODULE)).toMatchObject({ reached: true });
    const off = NODE_MODULE.replace('entry.hours, pair[1]]', 'entry.hours + 1, pair[1]]');
    expect((await judge('shapes.mjs', off, NODE_MODULE)).detail).toMatch(
      /^shapes\(new Entry\(Date\(2026-03-0\d\)/,
    );
  });
});

describe('agentRoot: the agent’s modules imported from where a command put them', () => {
  it('runs the preparing command first and imports the agent’s side from its root', async () => {
    const source = 'export const twice = (n) => 2 * n;\n';
    // The workspace holds a source the runner cannot import; the command puts a module elsewhere.
    const truth = localGroundTruth({ 'twice.src': source }, { 'reference/twice.mjs': source });
    const built = `${CHECKER_HOME}/built`;
    const check = (prepare: string) => ({
      seed: 'agent-root',
      reference: 'reference',
      functions: [{ module: 'twice.mjs', name: 'twice', count: 5, args: fc.tuple(fc.integer()) }],
      agentRoot: { root: built, prepare },
    });
    try {
      const copied = `mkdir -p ${built} && cp /workspace/twice.src ${built}/twice.mjs`;
      expect(await differential({ groundTruth: truth, instance: {} }, check(copied))).toMatchObject({
        reached: true,
      });
      const wrong = `mkdir -p ${built} && echo 'export const twice = (n) => 3 * n;' > ${built}/twice.mjs`;
      expect((await differential({ groundTruth: truth, instance: {} }, check(wrong))).detail).toMatch(
        /^twice\(-?\d+\) returned -?\d+; the reference returned/,
      );
    } finally {
      truth.cleanup();
    }
  });
});
