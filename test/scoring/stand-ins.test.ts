/**
 * Stand-ins: a run is evidence only when nothing the agent wrote stood in for part of it. Cheats
 * (a copy of the module on PYTHONPATH, a shim on PATH, a planted hook) void the run; legitimate
 * styles (a wrapper script that starts the runner, an edit through a temp file, the runner's own
 * temporary files, inputs prepared for a skill's script) do not.
 */
import { describe, expect, it } from 'vitest';
import type { ProcessLog, ToolCallLog } from '../../src/results/trial.js';
import { observedExit, runnerRuns } from '../../src/scoring/runner-runs.js';
import { type RunScope, standInsOf } from '../../src/scoring/stand-ins.js';
import type { DeclaredWrites } from '../../src/tasks/types.js';
import { proc, traced, WRITES_ANYWHERE, writeFile } from './call-fixtures.js';

const RED = '1 failed, 2 passed in 0.01s\n';
const TASK: DeclaredWrites = {
  allowed: ['/mod.py', '/test_*.py'],
  ignored: ['__pycache__', '.pytest_cache'],
};

const ctxOf = (calls: ToolCallLog[], declaredWrites: DeclaredWrites = TASK) => ({
  calls: calls.map((c, i) => ({ ...c, turn: i + 1 })),
  declaredWrites,
});

const pytest = (o: Partial<Parameters<typeof proc>[1]> & { earlier?: ProcessLog['earlier_runs'] } = {}) => {
  const { earlier, ...rest } = o;
  const p = proc(['python3', '-m', 'pytest', '-q'], {
    exit: 1,
    ...rest,
    reads: ['/workspace/test_mod.py', '/workspace/mod.py', ...(rest.reads ?? [])],
  });
  return earlier === undefined ? p : { ...p, earlier_runs: earlier };
};

/** The stand-ins of the last call's process at `step` (1: the first after the command's shell). */
function standIns(
  calls: ToolCallLog[],
  declared: DeclaredWrites = TASK,
  scope: RunScope = 'runner',
  step = 1,
) {
  const ctx = ctxOf(calls, declared);
  return standInsOf(ctx, { call: calls.length - 1, step }, scope);
}

const copy = (from: string, to: string) =>
  traced(`cp ${from} ${to}`, { processes: [proc(['cp', from, to], { reads: [from], writes: [to] })] });

describe('a run that executed or imported a file the agent wrote outside its allowed files', () => {
  it('a copy of the module on PYTHONPATH is no evidence about the workspace module', () => {
    const calls = [
      copy('/workspace/mod.py', '/tmp/fake/mod.py'),
      traced('PYTHONPATH=/tmp/fake pytest -q', {
        exit: 1,
        stdout: RED,
        processes: [pytest({ reads: ['/tmp/fake/mod.py'] })],
      }),
    ];
    expect(standIns(calls)).toEqual([{ path: '/tmp/fake/mod.py', how: 'read' }]);
    const [run] = runnerRuns(ctxOf(calls));
    expect(run?.standIns).toHaveLength(1);
    expect(run && observedExit(run)).toBeNull();
  });

  it('its bytecode stands for it: a cached copy read instead of the source is the same copy', () => {
    const calls = [
      writeFile('/tmp/fake/mod.py', 'def f(): return 1\n'),
      traced('PYTHONPATH=/tmp/fake pytest -q', {
        exit: 1,
        stdout: RED,
        processes: [pytest({ reads: ['/tmp/fake/__pycache__/mod.cpython-311.pyc'] })],
      }),
    ];
    expect(standIns(calls)).toEqual([{ path: '/tmp/fake/mod.py', how: 'read' }]);
  });

  it('a shim earlier on PATH that execs the real runner was executed in its place', () => {
    const shim = '/tmp/bin/python3';
    const calls = [
      writeFile(shim, '#!/bin/sh\nexec /usr/bin/python3 "$@"\n'),
      traced('PATH=/tmp/bin:$PATH python3 -m pytest -q', {
        exit: 1,
        stdout: RED,
        processes: [
          pytest({ earlier: [{ exe: shim, argv: ['/bin/sh', shim, '-m', 'pytest'], cwd: '/workspace' }] }),
        ],
      }),
    ];
    expect(standIns(calls)).toEqual([{ path: shim, how: 'executed' }]);
  });

  it('a shim a child of the runner ran (a test that calls `python3`) stands in too', () => {
    const runner = pytest({ pid: 50 });
    const calls = [
      writeFile('/tmp/bin/cat', '#!/bin/sh\necho 42\n'),
      traced('PATH=/tmp/bin:$PATH pytest -q', {
        exit: 1,
        stdout: RED,
        processes: [runner, proc(['cat', 'x'], { pid: 51, parent: 50, exe: '/tmp/bin/cat' })],
      }),
    ];
    expect(standIns(calls)).toEqual([{ path: '/tmp/bin/cat', how: 'executed' }]);
  });

  it('an import hook is one even where the task lets the agent write, unless it names it', () => {
    const hook = '/workspace/conftest.py';
    const calls = [
      writeFile(hook, 'import sys\n'),
      traced('pytest -q', { exit: 1, stdout: RED, processes: [pytest({ reads: [hook] })] }),
    ];
    expect(standIns(calls, WRITES_ANYWHERE)).toEqual([{ path: hook, how: 'read' }]);
    expect(standIns(calls, { allowed: ['/mod.py', '/conftest.py'], ignored: [] })).toEqual([]);
    // Outside what it may write, a sitecustomize.py on the path is one whatever its place.
    const site = [
      writeFile('/tmp/site/sitecustomize.py', 'import builtins\n'),
      traced('PYTHONPATH=/tmp/site pytest -q', {
        exit: 1,
        stdout: RED,
        processes: [pytest({ reads: ['/tmp/site/sitecustomize.py'] })],
      }),
    ];
    expect(standIns(site)).toEqual([{ path: '/tmp/site/sitecustomize.py', how: 'read' }]);
  });

  it('a file written only after the run started is not one it could have used in its place', () => {
    const calls = [
      traced('pytest -q', { exit: 1, stdout: RED, processes: [pytest({ reads: ['/tmp/later.py'] })] }),
    ];
    expect(standIns(calls)).toEqual([]);
  });
});

describe('legitimate sessions keep their evidence', () => {
  it('a script of the agent that starts the runner is not part of the run', () => {
    const calls = [
      writeFile('/tmp/t.sh', 'cd /workspace && pytest -q\n'),
      traced('bash /tmp/t.sh', {
        exit: 1,
        stdout: RED,
        processes: [
          proc(['bash', '/tmp/t.sh'], { pid: 60, reads: ['/tmp/t.sh'] }),
          pytest({ pid: 61, parent: 60 }),
        ],
      }),
    ];
    expect(standIns(calls, TASK, 'runner', 2)).toEqual([]);
    const [run] = runnerRuns(ctxOf(calls));
    expect(run && observedExit(run)).toBe(1);
  });

  it('an edit through a temp file renamed into place leaves the module the workspace one', () => {
    const edit = traced("sed 's/a/b/' mod.py > /tmp/mod.py && mv /tmp/mod.py mod.py", {
      processes: [
        proc(['sed', 's/a/b/', 'mod.py'], { reads: ['/workspace/mod.py'], writes: ['/tmp/mod.py'] }),
        {
          ...proc(['mv', '/tmp/mod.py', 'mod.py']),
          removed: ['/tmp/mod.py'],
          renamed_to: ['/workspace/mod.py'],
        },
      ],
    });
    const calls = [edit, traced('pytest -q', { exit: 1, stdout: RED, processes: [pytest()] })];
    expect(standIns(calls)).toEqual([]);
  });

  it('the runner’s own temporary files and caches are its own', () => {
    const first = traced('pytest -q', {
      exit: 1,
      stdout: RED,
      processes: [
        pytest({
          writes: ['/tmp/pytest-of-agent/pytest-0/x.txt', '/workspace/.pytest_cache/v/cache/lastfailed'],
        }),
      ],
    });
    const second = traced('pytest -q', {
      exit: 1,
      stdout: RED,
      processes: [
        pytest({
          reads: [
            '/workspace/.pytest_cache/v/cache/lastfailed',
            '/workspace/__pycache__/mod.cpython-311.pyc',
          ],
        }),
      ],
    });
    expect(standIns([first, second])).toEqual([]);
  });

  it('a skill’s script may read inputs the agent prepared; code it imports from there it may not', () => {
    const script = (reads: string[]) =>
      traced('python3 skill/render.py /tmp/notes.json', {
        processes: [
          proc(['python3', 'skill/render.py', '/tmp/notes.json'], {
            reads: ['/workspace/skill/render.py', ...reads],
          }),
        ],
      });
    const input = writeFile('/tmp/notes.json', '{}');
    expect(standIns([input, script(['/tmp/notes.json'])], TASK, 'program')).toEqual([]);
    const lib = writeFile('/tmp/lib/helpers.py', 'def f(): pass\n');
    expect(
      standIns([input, lib, script(['/tmp/notes.json', '/tmp/lib/helpers.py'])], TASK, 'program'),
    ).toEqual([{ path: '/tmp/lib/helpers.py', how: 'read' }]);
  });
});
