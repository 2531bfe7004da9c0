/**
 * What program each traced process ran: the file executed, or the script an image interpreter was
 * given and opened, resolved against the process's own directory; never the interpreter's inline
 * code, a module's argument, standard input, or a script it only checked.
 */
import { describe, expect, it } from 'vitest';
import { programRuns } from '../../src/scoring/program-runs.js';
import { type Proc, traced } from '../skills/traced.js';

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
});
