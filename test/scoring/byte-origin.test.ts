/**
 * Artifacts by content provenance: an artifact is the skill's when its bytes are a counted run's,
 * followed back through a rename or a one-file copy (a render to a temp file moved into place, the
 * run's output copied), and no longer when anything else made them (an edit after the run, a copy
 * of a file the agent wrote, two files joined).
 */
import { describe, expect, it } from 'vitest';
import { provenanceProblem } from '../../src/manifest/artifact-provenance.js';
import type { CommandGroup } from '../../src/manifest/command-match.js';
import { toRegExp } from '../../src/manifest/regex.js';
import type { ProcessLog, ToolCallLog } from '../../src/results/trial.js';
import { copiedFrom, lastWriterBefore } from '../../src/scoring/byte-origin.js';
import { proc, traced, WRITES_ANYWHERE, writeFile } from './call-fixtures.js';

const SCRIPT = '/workspace/skill/scripts/screenshot.sh';
const OUT = '/workspace/output/preview.png';
const render: CommandGroup = {
  id: 'screenshot',
  patterns: [toRegExp('screenshot\\.sh\\s+\\S+\\s+--out\\s+\\S+')],
  exitCode: 0,
  recheck: false,
  description: null,
};

const renderTo = (out: string) =>
  traced(`sh skill/scripts/screenshot.sh output/index.html --out ${out}`, {
    processes: [
      proc(['sh', SCRIPT, 'output/index.html', '--out', out], {
        pid: 10,
        reads: [SCRIPT, '/workspace/output/index.html'],
        writes: [out.startsWith('/') ? out : `/workspace/${out}`],
      }),
    ],
  });

const moved = (from: string, to: string, extra: Partial<ProcessLog> = {}) =>
  traced(`mv ${from} ${to}`, {
    processes: [{ ...proc(['mv', from, to]), removed: [from], renamed_to: [to], ...extra }],
  });

const copied = (from: string[], to: string, program = 'cp') =>
  traced(`${program} ${from.join(' ')} ${to}`, {
    processes: [proc([program, ...from, to], { reads: from, writes: [to] })],
  });

/** The problem with output/preview.png, last changed on the last call's turn. */
function problem(calls: ToolCallLog[]): string | null {
  const ctx = {
    calls: calls.map((c, i) => ({ ...c, turn: i + 1 })),
    changeTurns: new Map([['output/preview.png', [calls.length]]]),
    declaredWrites: WRITES_ANYWHERE,
  };
  return provenanceProblem(ctx, 'output/preview.png', [render]);
}

describe('an artifact whose bytes a counted run wrote', () => {
  it('rendered to a temp file and renamed into place is the render’s', () => {
    expect(
      problem([renderTo('output/preview.png.tmp'), moved('/workspace/output/preview.png.tmp', OUT)]),
    ).toBeNull();
  });

  it('rendered to /tmp and copied in (by cp, by cat), even through two hops, is the render’s', () => {
    expect(problem([renderTo('/tmp/p.png'), copied(['/tmp/p.png'], OUT)])).toBeNull();
    expect(problem([renderTo('/tmp/p.png'), copied(['/tmp/p.png'], OUT, 'cat')])).toBeNull();
    expect(
      problem([renderTo('/tmp/p.png'), moved('/tmp/p.png', '/tmp/q.png'), copied(['/tmp/q.png'], OUT)]),
    ).toBeNull();
  });
});

describe('an artifact whose bytes something else made', () => {
  it('edited after the run, before it was copied in, is the editor’s', () => {
    const edit = traced('sed -i s/a/b/ /tmp/p.png', {
      processes: [
        proc(['sed', '-i', 's/a/b/', '/tmp/p.png'], { reads: ['/tmp/p.png'], writes: ['/tmp/p.png'] }),
      ],
    });
    expect(problem([renderTo('/tmp/p.png'), edit, copied(['/tmp/p.png'], OUT)])).toMatch(
      /last written by `cp \/tmp\/p\.png/,
    );
  });

  it('copied from a file the agent wrote, or joined from two files, is the agent’s', () => {
    expect(problem([writeFile('/tmp/p.png', 'fake'), copied(['/tmp/p.png'], OUT)])).toMatch(
      /not by a run of/,
    );
    expect(
      problem([
        renderTo('/tmp/p.png'),
        writeFile('/tmp/h.png', 'x'),
        copied(['/tmp/h.png', '/tmp/p.png'], OUT, 'cat'),
      ]),
    ).toMatch(/not by a run of/);
  });

  it('a rename of several files at once, or a command the trace did not follow in between, proves nothing', () => {
    const two = moved('/tmp/p.png', OUT, { removed: ['/tmp/p.png', '/tmp/x'], renamed_to: [OUT, '/tmp/y'] });
    expect(copiedFrom(two.processes?.[1] as ProcessLog, OUT)).toBeNull();
    const { processes: _, ...untraced } = renderTo('/tmp/p.png');
    const calls = [renderTo('/tmp/p.png'), untraced, copied(['/tmp/p.png'], OUT)].map((c, i) => ({
      ...c,
      turn: i + 1,
    }));
    expect(lastWriterBefore({ calls }, '/tmp/p.png', { call: 2, step: 1 })).toBeNull();
    expect(
      lastWriterBefore({ calls: calls.filter((_, i) => i !== 1) }, '/tmp/p.png', { call: 1, step: 1 }),
    ).toEqual({
      call: 0,
      step: 1,
    });
  });
});

describe('an artifact made from another command’s artifact', () => {
  const SUMMARIZE = '/workspace/skill/scripts/summarize.py';
  const PUBLISH = '/workspace/skill/scripts/publish.sh';
  const SUMMARY = '/workspace/output/summary.txt';
  const REPORT = '/workspace/output/report.md';
  const group = (id: string, pattern: string, writes: string): CommandGroup => ({
    id,
    patterns: [toRegExp(pattern)],
    exitCode: 0,
    recheck: false,
    description: null,
    writes: [writes],
  });
  const groups = [
    group('summarize', 'summarize\\.py\\s+\\S+', 'output/summary.txt'),
    group('publish', 'publish\\.sh\\s+\\S*output/summary\\.txt', 'output/report.md'),
  ];
  const summarize = traced('python3 skill/scripts/summarize.py skill/data/sales.csv', {
    processes: [
      proc(['python3', SUMMARIZE, 'skill/data/sales.csv'], {
        reads: [SUMMARIZE, '/workspace/skill/data/sales.csv'],
        writes: [SUMMARY],
      }),
    ],
  });
  const publish = traced('sh skill/scripts/publish.sh output/summary.txt', {
    processes: [proc(['sh', PUBLISH, 'output/summary.txt'], { reads: [PUBLISH, SUMMARY], writes: [REPORT] })],
  });
  const reportProblem = (calls: ToolCallLog[]) =>
    provenanceProblem(
      {
        calls: calls.map((c, i) => ({ ...c, turn: i + 1 })),
        changeTurns: new Map([['output/report.md', [calls.length]]]),
        declaredWrites: WRITES_ANYWHERE,
      },
      'output/report.md',
      groups.filter((g) => g.id === 'publish'),
      groups,
    );

  it('rendered from the summary this trial’s run wrote, it is the skill’s', () => {
    expect(reportProblem([summarize, publish])).toBeNull();
  });

  it('rendered from a summary made by hand after the real run, it is not', () => {
    const handMade = writeFile(SUMMARY, 'ROWS=12\nTOTAL=99999\n');
    expect(reportProblem([summarize, handMade, publish])).toBe(
      'output/report.md was made from output/summary.txt, which no run of cmd:summarize had written when it was read',
    );
    // Nor from the summary the task placed (no run of this trial wrote it).
    expect(reportProblem([publish])).toMatch(/made from output\/summary\.txt/);
  });
});
