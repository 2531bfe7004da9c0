/**
 * What program each traced process ran: the file executed, or the script an image interpreter was
 * given and opened, resolved against the process's own directory; never the interpreter's inline
 * code, a module's argument, standard input, or a script it only checked.
 */
import { describe, expect, it } from 'vitest';
import type { ProcessLog } from '../../src/results/trial.js';
import { ownExitCode, programRuns } from '../../src/scoring/program-runs.js';
import { type Proc, traced } from '../skills/traced.js';

/** The runs of one call whose processes are given as the trace stores them. */
const runsOf = (processes: ProcessLog[]) => {
  const call = traced('cmd', []);
  return programRuns({ calls: [{ ...call, processes: [...(call.processes ?? []), ...processes], turn: 1 }] });
};

const process = (p: Partial<ProcessLog> & Pick<ProcessLog, 'exe' | 'argv'>): ProcessLog => ({
  pid: 200,
  parent_pid: 100,
  cwd: '/workspace',
  exit_code: 0,
  signal: null,
  reads: [],
  writes: [],
  removed: [],
  renamed_to: [],
  ...p,
});

const programOf = (p: Proc, cwd = '/workspace') => {
  const [run] = programRuns({ calls: [{ ...traced('cmd', [p], { cwd }), turn: 1 }] });
  return run === undefined
    ? undefined
    : { program: run.program, word: run.word, notRun: run.notRun?.why ?? null };
};

describe('programRuns', () => {
  it.each<[string[], string, number]>([
    [['python3', 'x.py'], '/workspace/x.py', 1],
    [['python3.11', '-u', '-B', 'x.py', '--out', 'y'], '/workspace/x.py', 3],
    [['python3', '-W', 'ignore', '-X', 'dev', 'x.py'], '/workspace/x.py', 5],
    [['python3', '-Wignore', 'x.py'], '/workspace/x.py', 2],
    [['python', '--', 'x.py'], '/workspace/x.py', 2],
    [['sh', 'x.sh'], '/workspace/x.sh', 1],
    [['bash', '-eux', '-o', 'pipefail', 'x.sh'], '/workspace/x.sh', 4],
    [['bash', '--norc', 'x.sh'], '/workspace/x.sh', 2],
    [['dash', '-e', '../w/x.sh'], '/workspace/w/x.sh', 2],
    [['node', '--require', 'hook.cjs', 'x.mjs'], '/workspace/x.mjs', 3],
    [['node', '--require=hook.cjs', 'x.mjs', '--flag'], '/workspace/x.mjs', 2],
    [['perl', '-w', 'x.pl'], '/workspace/x.pl', 2],
  ])('%j runs %s', (argv, program, word) => {
    const read = program;
    const cwd = argv.includes('../w/x.sh') ? '/workspace/sub' : '/workspace';
    expect(programOf({ argv, reads: [read] }, cwd)).toEqual({ program, word, notRun: null });
  });

  it.each<[string[]]>([
    [['python3', '-c', 'print(1)', 'x.py']],
    [['python3', '-', 'x.py']],
    [['python3', '-Ic', 'code', 'x.py']],
    [['python3', '--version']],
    [['bash', '-c', 'sh x.sh']],
    [['bash', '-ec', 'sh x.sh']],
    [['bash', '-s', 'x.sh']],
    [['node', '-e', 'code', 'x.mjs']],
    [['node', '-pe', 'code', 'x.mjs']],
    [['perl', '-e', 'code', 'x.pl']],
    [['cat', 'x.py']],
    [['echo', 'python3', 'x.py']],
  ])('%j runs its executable itself', (argv) => {
    const run = programOf({ argv, reads: ['/workspace/x.py', '/workspace/x.sh', '/workspace/x.mjs'] });
    expect(run?.program).toBe(`/usr/bin/${argv[0]}`);
    expect(run?.word).toBe(0);
  });

  it('a module is the interpreter, unless it was loaded from /workspace or /tmp', () => {
    expect(programOf({ argv: ['python3', '-m', 'pytest', '-q'] })).toEqual({
      program: '/usr/bin/python3',
      word: 2,
      notRun: null,
    });
    expect(programOf({ argv: ['python3', '-mpytest'] })?.word).toBe(1);
    expect(
      programOf({ argv: ['python3', '-m', 'pkg.tool'], reads: ['/workspace/pkg/tool.py'] })?.program,
    ).toBe('/workspace/pkg/tool.py');
  });

  it('a syntax check, or a script never opened, is not the program', () => {
    for (const argv of [
      ['sh', '-n', 'x.sh'],
      ['bash', '-xn', 'x.sh'],
      ['bash', '-o', 'noexec', 'x.sh'],
      ['node', '--check', 'x.sh'],
      ['perl', '-c', 'x.sh'],
    ])
      expect(programOf({ argv, reads: ['/workspace/x.sh'] }), argv.join(' ')).toEqual({
        program: `/usr/bin/${argv[0]}`,
        word: 0,
        notRun: 'syntax check',
      });
    expect(programOf({ argv: ['python3', 'x.py'], reads: [] })?.notRun).toBe('not opened');
  });

  it('an interpreter outside the image is just a program; an executable is its own path', () => {
    expect(programOf({ argv: ['/tmp/python3', 'x.py'] })?.program).toBe('/tmp/python3');
    expect(programOf({ argv: ['./skill/x.sh', '--a'], reads: [] })?.program).toBe('/workspace/skill/x.sh');
  });

  it("ignores the call's own shell and calls without a trace", () => {
    const call = traced('true', []);
    expect(programRuns({ calls: [{ ...call, turn: 1 }] })).toEqual([]);
    const { processes: _, ...bare } = traced('python3 x.py', [{ argv: ['python3', 'x.py'] }]);
    expect(programRuns({ calls: [{ ...bare, turn: 1 }] })).toEqual([]);
  });

  it('counts every program of an exec chain, each with its own arguments and directory', () => {
    // skill/run.sh (a bash script) ends in `exec python3 worker.py`: both ran; the exit is the chain's.
    const runs = runsOf([
      process({
        earlier_runs: [
          { exe: '/workspace/skill/run.sh', argv: ['skill/run.sh', '--in', 'a'], cwd: '/workspace' },
        ],
        exe: '/usr/bin/python3',
        argv: ['python3', 'worker.py'],
        cwd: '/workspace/skill',
        reads: ['/workspace/skill/worker.py'],
        exit_code: 3,
      }),
    ]);
    expect(runs.map((r) => [r.program, r.process.cwd, r.argv.join(' '), ownExitCode(r)])).toEqual([
      ['/workspace/skill/run.sh', '/workspace', 'skill/run.sh --in a', 3],
      ['/workspace/skill/worker.py', '/workspace/skill', 'python3 worker.py', 3],
    ]);
  });

  it("counts what the call's own shell execs, but not the shell itself", () => {
    const call = traced('exec python3 x.py', []);
    const [shell] = call.processes ?? [];
    if (shell === undefined) throw new Error('no shell');
    const execd: ProcessLog = {
      ...shell,
      earlier_runs: [{ exe: shell.exe, argv: shell.argv, cwd: shell.cwd }],
      exe: '/usr/bin/python3',
      argv: ['python3', 'x.py'],
      cwd: '/workspace',
      reads: ['/workspace/x.py'],
    };
    const runs = programRuns({ calls: [{ ...call, processes: [execd], turn: 1 }] });
    expect(runs.map((r) => r.program)).toEqual(['/workspace/x.py']);
  });

  it.each<[string[], string[]]>([
    [['bash'], ['bash', '/workspace/skill/x.sh']],
    [
      ['sh', '-s', 'a', 'b'],
      ['sh', '/workspace/skill/x.sh', 'a', 'b'],
    ],
    [
      ['bash', '-es', '--', 'a'],
      ['bash', '-e', '/workspace/skill/x.sh', 'a'],
    ],
    [
      ['bash', '-o', 'pipefail'],
      ['bash', '-o', 'pipefail', '/workspace/skill/x.sh'],
    ],
    [
      ['python3', '-u', '-', 'a'],
      ['python3', '-u', '/workspace/skill/x.sh', 'a'],
    ],
    [['node'], ['node', '/workspace/skill/x.sh']],
  ])('%j reading its program from a file on its input runs that file, as %j', (argv, named) => {
    const [run] = runsOf([
      process({ exe: `/usr/bin/${argv[0]}`, argv, stdin_file: '/workspace/skill/x.sh' }),
    ]);
    expect(run).toMatchObject({
      program: '/workspace/skill/x.sh',
      argv: named,
      word: named.indexOf('/workspace/skill/x.sh'),
    });
  });

  it('an input the trace does not vouch for, a syntax check, or a script operand is no stdin program', () => {
    const stdin = (argv: string[], stdinFile?: string) =>
      runsOf([
        process({
          exe: `/usr/bin/${argv[0]}`,
          argv,
          reads: ['/workspace/y.sh'],
          ...(stdinFile === undefined ? {} : { stdin_file: stdinFile }),
        }),
      ])[0];
    expect(stdin(['bash'])?.program).toBe('/usr/bin/bash');
    expect(stdin(['bash', '-n'], '/workspace/x.sh')).toMatchObject({
      program: '/usr/bin/bash',
      notRun: { script: '/workspace/x.sh', why: 'syntax check' },
    });
    expect(stdin(['bash', '-c', 'cat'], '/workspace/x.sh')?.program).toBe('/usr/bin/bash');
    expect(stdin(['bash', 'y.sh'], '/workspace/x.sh')?.program).toBe('/workspace/y.sh');
    expect(stdin(['node', '--test'], '/workspace/x.sh')?.program).toBe('/usr/bin/node');
    expect(stdin(['python3', '-m', 'pytest'], '/workspace/x.sh')?.program).toBe('/usr/bin/python3');
  });

  it('`bash /dev/stdin < x.sh` runs x.sh when the trace vouches for the input, else nothing of it', () => {
    const named = (argv: string[], stdinFile?: string) =>
      runsOf([
        process({
          exe: `/usr/bin/${argv[0]}`,
          argv,
          ...(stdinFile === undefined ? {} : { stdin_file: stdinFile }),
        }),
      ])[0];
    expect(named(['bash', '/dev/stdin', 'a'], '/workspace/skill/x.sh')).toMatchObject({
      program: '/workspace/skill/x.sh',
      argv: ['bash', '/workspace/skill/x.sh', 'a'],
      word: 1,
    });
    expect(named(['python3', '/dev/fd/0'], '/workspace/skill/x.py')?.program).toBe('/workspace/skill/x.py');
    expect(named(['sh', '-n', '/proc/self/fd/0'], '/workspace/skill/x.sh')).toMatchObject({
      program: '/usr/bin/sh',
      notRun: { script: '/workspace/skill/x.sh', why: 'syntax check' },
    });
    // A pipe or an input someone else read first: the trace does not say which file it was.
    expect(named(['bash', '/dev/stdin'])?.program).toBe('/usr/bin/bash');
  });
});
