/**
 * When a required command counts: a traced process ran the skill's own script (by its resolved
 * path, from any directory, directly or through an interpreter) or a program of the image, the
 * pattern names that program in the argv it received, and its own exit code is the one asked for.
 * Command text counts for nothing: echoing the command, a function named like the script, a copy in
 * /tmp, a syntax check, a forged stub record or an untraced call run nothing.
 */
import { describe, expect, it } from 'vitest';
import { rerunLine } from '../../src/manifest/command-flags.js';
import { type CommandGroup, groupRuns, inOrder } from '../../src/manifest/command-match.js';
import { toRegExp } from '../../src/manifest/regex.js';
import type { ToolCallLog } from '../../src/results/trial.js';
import { programRuns } from '../../src/scoring/program-runs.js';
import { WRITES_ANYWHERE } from '../scoring/call-fixtures.js';
import { traced, untraced } from './traced.js';

const group = (pattern: string, exitCode: number | null = null): CommandGroup => ({
  id: '0',
  patterns: [toRegExp(pattern)],
  exitCode,
  recheck: false,
  description: null,
});

const ctx = (calls: ToolCallLog[]) => ({
  calls: calls.map((c, i) => ({ ...c, turn: i + 1 })),
  declaredWrites: WRITES_ANYWHERE,
});

const turns = (calls: ToolCallLog[], g: CommandGroup): number[] =>
  groupRuns(ctx(calls), g).runs.map((r) => r.turn);

const near = (calls: ToolCallLog[], g: CommandGroup): string | null => groupRuns(ctx(calls), g).near;

const SCRIPT = '/workspace/skill/scripts/make_report.sh';

describe("the skill's own script, by its resolved path", () => {
  const report = group('make_report\\.sh\\s+.*--title\\s+\\S+');

  it('counts it run by an interpreter, directly, by absolute path, from another directory, inside bash -c', () => {
    const calls = [
      traced('sh skill/scripts/make_report.sh --title daily', [
        { argv: ['sh', 'skill/scripts/make_report.sh', '--title', 'daily'] },
      ]),
      traced('./skill/scripts/make_report.sh --title daily', [
        { argv: ['./skill/scripts/make_report.sh', '--title', 'daily'], reads: [] },
      ]),
      traced(`bash ${SCRIPT} --title daily`, [{ argv: ['bash', SCRIPT, '--title', 'daily'] }]),
      traced('cd output && sh ../skill/scripts/make_report.sh --title "a b"', [
        { argv: ['sh', '../skill/scripts/make_report.sh', '--title', 'a b'], cwd: '/workspace/output' },
      ]),
      traced("bash -c 'timeout 60 sh /workspace/skill/scripts/make_report.sh --title x'", [
        { argv: ['bash', '-c', `timeout 60 sh ${SCRIPT} --title x`], reads: [] },
        { argv: ['timeout', '60', 'sh', SCRIPT, '--title', 'x'] },
        { argv: ['sh', SCRIPT, '--title', 'x'] },
      ]),
    ];
    expect(turns(calls, report)).toEqual([1, 2, 3, 4, 5]);
  });

  it('counts `cd output && python3 ../skill/scripts/check_page.py index.html` for a pattern written from /workspace', () => {
    const check = group('check_page\\.py\\s+\\S*output/index\\.html', 0);
    const call = traced('cd output && python3 ../skill/scripts/check_page.py index.html', [
      { argv: ['python3', '../skill/scripts/check_page.py', 'index.html'], cwd: '/workspace/output' },
    ]);
    expect(turns([call], check)).toEqual([1]);
  });

  it('counts a #!/usr/bin/env python3 script run directly (the trace shows python3 running it)', () => {
    const call = traced('./skill/check_page.py out.html', [
      { argv: ['python3', './skill/check_page.py', 'out.html'], exe: '/usr/bin/python3' },
    ]);
    expect(turns([call], group('check_page\\.py\\s+\\S*out\\.html'))).toEqual([1]);
  });

  it('does not count a same-named copy in /tmp, /dev/shm or the workspace, nor an interpreter the agent wrote', () => {
    const calls = [
      traced('cp skill/scripts/make_report.sh /tmp/ && sh /tmp/make_report.sh --title a', [
        { argv: ['cp', 'skill/scripts/make_report.sh', '/tmp/'], reads: [SCRIPT] },
        { argv: ['sh', '/tmp/make_report.sh', '--title', 'a'] },
      ]),
      traced('sh /dev/shm/make_report.sh --title a', [
        { argv: ['sh', '/dev/shm/make_report.sh', '--title', 'a'] },
      ]),
      traced('./make_report.sh --title a', [{ argv: ['./make_report.sh', '--title', 'a'] }]),
      traced('/tmp/sh skill/scripts/make_report.sh --title a', [
        { argv: ['/tmp/sh', 'skill/scripts/make_report.sh', '--title', 'a'] },
      ]),
    ];
    expect(turns(calls, report)).toEqual([]);
    expect(near(calls, report)).toMatch(/ran \/tmp\/make_report\.sh, not the skill's own script/);
  });

  it('does not count a syntax check: sh -n, bash -n, bash -o noexec, python3 -m py_compile, node --check, compile()', () => {
    const py = group('summarize\\.py');
    const js = group('render\\.mjs');
    const sh = group('make_report\\.sh');
    const calls = [
      traced('sh -n skill/scripts/make_report.sh', [{ argv: ['sh', '-n', 'skill/scripts/make_report.sh'] }]),
      traced('bash -n skill/scripts/make_report.sh', [
        { argv: ['bash', '-n', 'skill/scripts/make_report.sh'] },
      ]),
      traced('bash -en skill/scripts/make_report.sh', [
        { argv: ['bash', '-en', 'skill/scripts/make_report.sh'] },
      ]),
      traced('bash -o noexec skill/scripts/make_report.sh', [
        { argv: ['bash', '-o', 'noexec', 'skill/scripts/make_report.sh'] },
      ]),
      traced('python3 -m py_compile skill/scripts/summarize.py', [
        { argv: ['python3', '-m', 'py_compile', 'skill/scripts/summarize.py'] },
      ]),
      traced(`python3 -c 'compile(open("skill/scripts/summarize.py").read(), "s", "exec")'`, [
        {
          argv: ['python3', '-c', 'compile(open("skill/scripts/summarize.py").read(), "s", "exec")'],
          reads: ['/workspace/skill/scripts/summarize.py'],
        },
      ]),
      traced('node --check skill/scripts/render.mjs', [
        { argv: ['node', '--check', 'skill/scripts/render.mjs'] },
      ]),
      traced('node -c skill/scripts/render.mjs', [{ argv: ['node', '-c', 'skill/scripts/render.mjs'] }]),
    ];
    expect([turns(calls, sh), turns(calls, py), turns(calls, js)]).toEqual([[], [], []]);
    expect(near(calls, sh)).toMatch(/did not run skill\/scripts\/make_report\.sh \(a syntax check only\)/);
  });

  it('does not count an interpreter that never opened the script (an option it was not told)', () => {
    const call = traced('python3 --weird skill/scripts/summarize.py', [
      { argv: ['python3', '-X', 'dev', 'skill/scripts/summarize.py'], reads: [] },
    ]);
    expect(turns([call], group('summarize\\.py'))).toEqual([]);
    expect(near([call], group('summarize\\.py'))).toMatch(/it never opened it/);
  });

  it('does not count echoing the command, cat, a comment, a function named like the script', () => {
    const calls = [
      // echo is a builtin: the trace holds no process but the call's shell.
      traced('echo sh skill/scripts/make_report.sh --title x', []),
      traced('/usr/bin/echo sh skill/scripts/make_report.sh --title x', [
        { argv: ['/usr/bin/echo', 'sh', 'skill/scripts/make_report.sh', '--title', 'x'], reads: [] },
      ]),
      traced('cat skill/scripts/make_report.sh --title x', [
        { argv: ['cat', 'skill/scripts/make_report.sh', '--title', 'x'] },
      ]),
      traced('true # sh skill/scripts/make_report.sh --title x', [{ argv: ['true'] }]),
      traced('make_report.sh() { touch output/report.pdf; }; make_report.sh --title x', [
        { argv: ['touch', 'output/report.pdf'] },
      ]),
      traced('sh() { touch output/report.pdf; }; sh skill/scripts/make_report.sh --title x', [
        { argv: ['touch', 'output/report.pdf'] },
      ]),
    ];
    expect(turns(calls, report)).toEqual([]);
  });

  it('does not count a forged stub record: the record is the trace, which the agent cannot write', () => {
    const line = JSON.stringify({ script: 'scripts/make_report.sh', argv: ['--title', 'x'], cwd: '.' });
    expect(turns([traced(`echo '${line}' >> .stub_calls.log`, [])], report)).toEqual([]);
  });

  it('does not count a call without a trace, whatever it says', () => {
    const call = untraced(
      traced('sh skill/scripts/make_report.sh --title daily', [
        { argv: ['sh', 'skill/scripts/make_report.sh', '--title', 'daily'] },
      ]),
    );
    expect(turns([call], report)).toEqual([]);
    expect(near([call], report)).toMatch(/no command was traced/);
  });

  it('does not count a pattern that names only arguments, nor a refused call', () => {
    const run = traced('sh skill/scripts/make_report.sh --title daily', [
      { argv: ['sh', 'skill/scripts/make_report.sh', '--title', 'daily'] },
    ]);
    expect(turns([run], group('--title\\s+daily'))).toEqual([]);
    expect(turns([{ ...run, invalid: 'bad_arguments' }], report)).toEqual([]);
  });
});

describe('argument forms', () => {
  const input = group('csv_summarize\\.py\\s+.*--input\\s+\\S*data/sales\\.csv');
  const run = (argv: string[], cwd = '/workspace') =>
    traced(argv.join(' '), [{ argv: ['python3', ...argv], cwd }], { cwd });

  it('treats --a=b, --a b and quoted values alike, and paths from any directory alike', () => {
    const calls = [
      run(['skill/scripts/csv_summarize.py', '--input', 'skill/data/sales.csv']),
      run(['skill/scripts/csv_summarize.py', '--input=skill/data/sales.csv']),
      // `--input 'skill/data/sales.csv'`: the quotes never reach argv.
      run([
        '/workspace/skill/scripts/csv_summarize.py',
        '--out',
        'o.txt',
        '--input',
        '/workspace/skill/data/sales.csv',
      ]),
      run(['../skill/scripts/csv_summarize.py', '--input=../skill/data/sales.csv'], '/workspace/output'),
      run(['csv_summarize.py', '--input', '../data/sales.csv'], '/workspace/skill/scripts'),
    ];
    expect(turns(calls, input)).toEqual([1, 2, 3, 4, 5]);
  });

  it('still needs the arguments the pattern names', () => {
    const calls = [
      run(['skill/scripts/csv_summarize.py', '--input', 'skill/data/other.csv']),
      run(['skill/scripts/csv_summarize.py', '--inputs=skill/data/sales.csv']),
    ];
    expect(turns(calls, input)).toEqual([]);
  });

  it('anchors paths at /workspace: a path outside it that only ends like the named one does not count', () => {
    const page = group('screenshot\\.sh\\s+\\S*output/index\\.html\\s+--out\\s+\\S*output/preview\\.png', 0);
    const shot = (args: string[], cwd = '/workspace') =>
      traced(args.join(' '), [{ argv: ['bash', '/workspace/skill/scripts/screenshot.sh', ...args], cwd }], {
        cwd,
      });
    const calls = [
      shot(['/tmp/output/index.html', '--out', 'output/preview.png']),
      shot(['output/index.html', '--out', '/tmp/output/preview.png']),
      shot(['output/index.html', '--out=/dev/shm/output/preview.png']),
      // Relative words from a directory outside the workspace name files there.
      shot(['output/index.html', '--out', 'output/preview.png'], '/tmp'),
      shot(['index.html', '--out', 'preview.png'], '/tmp/output'),
      shot(['../../tmp/output/index.html', '--out', 'output/preview.png']),
      // The real run, in any spelling.
      shot(['output/index.html', '--out', 'output/preview.png']),
      shot(['/workspace/output/index.html', '--out=./output/preview.png']),
      shot(['index.html', '--out', 'preview.png'], '/workspace/output'),
    ];
    expect(turns(calls, page)).toEqual([7, 8, 9]);
    expect(near(calls.slice(0, 1), page)).toMatch(/outside \/workspace/);
  });

  it('still counts a pattern that names a path outside the workspace from its root, and arguments that are no paths', () => {
    const cache = group('csv_summarize\\.py\\s+.*--cache\\s+/tmp/cache\\b');
    const title = group('make_report\\.sh\\s+.*--title\\s+Week\\b');
    const calls = [
      run(['skill/scripts/csv_summarize.py', '--cache', '/tmp/cache']),
      run(['skill/scripts/csv_summarize.py', '--cache', '/var/tmp/cache']),
      traced('cd /tmp && sh /workspace/skill/scripts/make_report.sh --title Week', [
        { argv: ['sh', SCRIPT, '--title', 'Week'], cwd: '/tmp' },
      ]),
    ];
    expect(turns(calls, cache)).toEqual([1]);
    expect(turns(calls, title)).toEqual([3]);
  });

  it('keeps a value with spaces one argument: `--title "Week 48"` is --title Week 48', () => {
    const title = group('make_report\\.sh\\s+.*--title\\s+Week 48\\b');
    const call = traced('sh skill/scripts/make_report.sh --title="Week 48"', [
      { argv: ['sh', 'skill/scripts/make_report.sh', '--title=Week 48'] },
    ]);
    expect(turns([call], title)).toEqual([1]);
  });
});

describe('exit codes', () => {
  const ok = group('check_page\\.py', 0);
  const check = (command: string, code: number, shellExit: number) =>
    traced(command, [{ argv: ['python3', 'skill/check_page.py', 'out.html'], exit: code }], {
      exit: shellExit,
    });

  it("are the process's own, not the shell's: `|| true` and `; echo` change nothing", () => {
    const calls = [
      check('python3 skill/check_page.py out.html || true', 1, 0),
      check('python3 skill/check_page.py out.html; echo done', 1, 0),
      check('python3 skill/check_page.py out.html | tail -1', 1, 0),
      check('python3 skill/check_page.py out.html && false', 0, 1),
    ];
    expect(turns(calls, ok)).toEqual([4]);
    expect(near(calls.slice(0, 1), ok)).toMatch(/exited 1, expected 0/);
  });

  it('a killed process has none', () => {
    const killed = traced('python3 skill/check_page.py out.html', [
      { argv: ['python3', 'skill/check_page.py', 'out.html'], signal: 'SIGKILL' },
    ]);
    expect(turns([killed], ok)).toEqual([]);
  });
});

describe('programs of the image', () => {
  it('count for patterns that name them (`python3 -m pytest`, `ls`), not a module the agent wrote', () => {
    const calls = [
      traced('python3 -m pytest -q', [{ argv: ['python3', '-m', 'pytest', '-q'] }]),
      traced('ls -l output', [{ argv: ['ls', '-l', 'output'] }]),
      traced('python3 -m check_page output/index.html', [
        { argv: ['python3', '-m', 'check_page', 'output/index.html'], reads: ['/workspace/check_page.py'] },
      ]),
    ];
    expect(turns(calls, group('pytest'))).toEqual([1]);
    expect(turns(calls, group('^ls\\s+-l'))).toEqual([2]);
    expect(turns(calls, group('check_page'))).toEqual([]);
  });
});

describe('order and re-runs', () => {
  const a = group('a\\.sh');
  const b = group('b\\.sh');
  const sh = (name: string) => ({ argv: ['sh', `skill/${name}`] });
  const runsOf = (calls: ToolCallLog[]) => [a, b].map((g) => groupRuns(ctx(calls), g).runs);

  it('needs one run per group, each after the previous, by process order inside a call', () => {
    expect(inOrder(runsOf([traced('', [sh('a.sh')]), traced('', [sh('b.sh')])]))).toBe(true);
    expect(inOrder(runsOf([traced('', [sh('b.sh')]), traced('', [sh('a.sh')])]))).toBe(false);
    expect(
      inOrder(runsOf([traced('', [sh('b.sh')]), traced('', [sh('a.sh')]), traced('', [sh('b.sh')])])),
    ).toBe(true);
    expect(inOrder(runsOf([traced('sh skill/a.sh && sh skill/b.sh', [sh('a.sh'), sh('b.sh')])]))).toBe(true);
    expect(inOrder(runsOf([traced('sh skill/b.sh; sh skill/a.sh', [sh('b.sh'), sh('a.sh')])]))).toBe(false);
  });

  it('re-runs the program with the arguments it received, in its directory (ending in / for the staged copy)', () => {
    const call = traced(`cd skill && python3 check.py 'out put.html' "$HOME" *.txt; echo done`, [
      { argv: ['python3', 'check.py', 'out put.html', '/home/agent', 'a.txt'], cwd: '/workspace/skill' },
    ]);
    const [run] = programRuns(ctx([call]));
    expect(run === undefined ? null : rerunLine(run)).toBe(
      `cd '/workspace/skill/' && '/usr/bin/python3' 'check.py' 'out put.html' '/home/agent' 'a.txt'`,
    );
  });
});
