/**
 * An artifact's run was fed this trial's inputs (`reads` of its command): the declared inputs read,
 * a copy of them as good as them, and no data the agent made beside or instead of them.
 */
import { describe, expect, it } from 'vitest';
import { provenanceProblem } from '../../src/manifest/artifact-provenance.js';
import type { CommandGroup } from '../../src/manifest/command-match.js';
import { toRegExp } from '../../src/manifest/regex.js';
import type { ProcessLog, ToolCallLog } from '../../src/results/trial.js';
import { proc, traced, WRITES_ANYWHERE, writeFile } from '../scoring/call-fixtures.js';

const SCRIPT = '/workspace/skill/scripts/summarize.py';
const DATA = '/workspace/skill/data/sales.csv';
const SUMMARY = '/workspace/output/summary.txt';
const summarize: CommandGroup = {
  id: 'summarize',
  patterns: [toRegExp('summarize\\.py\\s+.*--input\\s+\\S*data/sales\\.csv')],
  exitCode: 0,
  recheck: false,
  description: null,
  writes: ['output/summary.txt'],
  reads: ['skill/data/sales.csv'],
};

/** A run of the summarizer that read `reads` (its script aside), written by `command`. */
function run(command: string, reads: string[], extra: Partial<ProcessLog> = {}): ToolCallLog {
  return traced(command, {
    processes: [
      {
        ...proc(['python3', SCRIPT, ...command.split(' ').slice(2)], {
          pid: 10,
          reads: [SCRIPT, '/usr/lib/python3/x.py', ...reads],
          writes: [SUMMARY],
        }),
        ...extra,
      },
    ],
  });
}

const copy = (from: string, to: string) =>
  traced(`cp ${from} ${to}`, { processes: [proc(['cp', from, to], { reads: [from], writes: [to] })] });

function problem(calls: ToolCallLog[], group: CommandGroup = summarize): string | null {
  return provenanceProblem(
    {
      calls: calls.map((c, i) => ({ ...c, turn: i + 1 })),
      changeTurns: new Map([['output/summary.txt', [calls.length]]]),
      declaredWrites: WRITES_ANYWHERE,
    },
    'output/summary.txt',
    [group],
  );
}

const REAL = 'python3 skill/scripts/summarize.py --input skill/data/sales.csv --out output/summary.txt';

describe('a run fed its declared inputs', () => {
  it('reading them is the skill’s result, and so is a run on a copy of them', () => {
    expect(problem([run(REAL, [DATA])])).toBeNull();
    // A pattern that names the script only: the run may be given any path.
    const anyPath = { ...summarize, patterns: [toRegExp('summarize\\.py\\s')] };
    const onCopy = 'python3 skill/scripts/summarize.py --input /tmp/in.csv --out output/summary.txt';
    expect(problem([copy(DATA, '/tmp/in.csv'), run(onCopy, ['/tmp/in.csv'])], anyPath)).toBeNull();
    expect(
      problem(
        [copy(DATA, '/tmp/a.csv'), copy('/tmp/a.csv', '/tmp/in.csv'), run(onCopy, ['/tmp/in.csv'])],
        anyPath,
      ),
    ).toBeNull();
  });

  it('a file of its own the run writes and reads back (a temporary) is no stand-in', () => {
    expect(problem([run(REAL, [DATA, '/tmp/sort.tmp'], { writes: [SUMMARY, '/tmp/sort.tmp'] })])).toBeNull();
  });

  it('a command that declares no inputs is not asked', () => {
    const { reads: _, ...open } = summarize;
    expect(
      problem([writeFile('/tmp/other.csv', 'region,units\n'), run(REAL, ['/tmp/other.csv'])], open),
    ).toBeNull();
  });
});

describe('a run fed other data', () => {
  it('given the option twice, so that the later copy won, never read the input', () => {
    const twice = `${REAL} --input /tmp/other.csv`;
    expect(
      problem([writeFile('/tmp/other.csv', 'region,units\nx,1\n'), run(twice, ['/tmp/other.csv'])]),
    ).toBe(
      'output/summary.txt was made by a run of cmd:summarize that read /tmp/other.csv, data the agent wrote, not only its inputs (skill/data/sales.csv)',
    );
  });

  it('reading a second data file beside the real one is not the skill’s result', () => {
    const extra = traced('sed s/1/9/ skill/data/sales.csv > /tmp/more.csv', {
      processes: [proc(['sed', 's/1/9/', DATA], { reads: [DATA], writes: ['/tmp/more.csv'] })],
    });
    expect(problem([extra, run(REAL, [DATA, '/tmp/more.csv'])])).toMatch(
      /read \/tmp\/more\.csv, data the agent wrote/,
    );
  });

  it('a copy of the input the agent then edited, and a run that read no input at all, are neither', () => {
    const edit = traced('sed -i s/1/9/ /tmp/in.csv', {
      processes: [
        proc(['sed', '-i', 's/1/9/', '/tmp/in.csv'], { reads: ['/tmp/in.csv'], writes: ['/tmp/in.csv'] }),
      ],
    });
    expect(problem([copy(DATA, '/tmp/in.csv'), edit, run(REAL, ['/tmp/in.csv'])])).toMatch(
      /read \/tmp\/in\.csv, data the agent wrote/,
    );
    expect(problem([run(REAL, [])])).toBe(
      'output/summary.txt was made by a run of cmd:summarize that never read skill/data/sales.csv',
    );
  });
});
