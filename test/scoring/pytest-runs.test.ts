import { describe, expect, it } from 'vitest';
import { callSteps, isPytestRun, pytestExitCode } from '../../src/scoring/commands.js';
import type { Finality } from '../../src/scoring/shell-commands.js';
import { shell } from './call-fixtures.js';

const finalities = (command: string): Finality[] =>
  callSteps(shell(command)).flatMap((s) => (s.pytest === null ? [] : [s.pytest]));

describe('isPytestRun: a simple command that really runs a pytest suite', () => {
  it.each([
    'pytest',
    'python3 -m pytest -q',
    'python -m pytest tests/',
    'python3.11 -B -m pytest',
    'python3 -mpytest',
    'python3 -X dev -m pytest',
    'py.test -x',
    '/usr/bin/pytest -k parse',
    'python3 /usr/bin/pytest',
    'PYTHONPATH=. pytest',
    'cd /workspace && timeout 60 python3 -m pytest -q 2>&1',
    "bash -lc 'python3 -m pytest'",
  ])('%s runs pytest', (command) => {
    expect(isPytestRun(shell(command))).toBe(true);
  });

  it.each([
    'echo pytest',
    'echo "python3 -m pytest"',
    'grep pytest requirements.txt',
    'pip install pytest',
    'python3 -c "import pytest"',
    'pytest --version',
    'python3 -m pytest --collect-only',
    'pytest --co -q',
    'cat pytest.ini',
    'python3 pytest_helper.py',
    'python3 -m pip show pytest',
    'command -v pytest',
    '# pytest',
  ])('%s does not', (command) => {
    expect(isPytestRun(shell(command))).toBe(false);
  });
});

describe('how far the reported exit code is pytest’s', () => {
  it.each<[string, Finality[]]>([
    ['pytest', ['exact']],
    ['cd /workspace && python3 -m pytest -q', ['exact']],
    ['export X=1 && pytest', ['exact']],
    ['pytest > out.txt 2>&1', ['exact']],
    ['(cd /workspace; pytest)', ['exact']],
    ["bash -c 'cd /workspace && pytest -q'", ['exact']],
    ['timeout 60 python3 -m pytest', ['exact']],
    ['pytest; pytest -x', ['none', 'exact']],
    ['pytest || true', ['none']],
    ['pytest; echo done', ['none']],
    ['pytest | tee log.txt', ['none']],
    ['python3 -m pytest 2>&1 | tail -5', ['none']],
    ['pytest && echo ok', ['none']],
    ['pytest; cat out.txt', ['none']],
    ['! pytest', ['none']],
    ['if pytest; then echo ok; fi', ['none']],
    ['{ pytest; }', ['none']],
    ['x=$(pytest)', ['none']],
    ['echo "$(pytest)"', ['none']],
    ['pytest &', ['none']],
    ["sh -c 'pytest' || true", ['none']],
    ['make && pytest', ['if-zero']],
    ['false || pytest', ['if-nonzero']],
    ['true || pytest', ['if-nonzero']],
  ])('%s', (command, expected) => {
    expect(finalities(command)).toEqual(expected);
  });

  it('turns a reported code into pytest’s own only when it must be pytest’s', () => {
    expect(pytestExitCode(1, false, 'exact')).toBe(1);
    expect(pytestExitCode(0, false, 'exact')).toBe(0);
    expect(pytestExitCode(0, false, 'if-zero')).toBe(0);
    expect(pytestExitCode(1, false, 'if-zero')).toBeNull();
    expect(pytestExitCode(2, false, 'if-nonzero')).toBe(2);
    expect(pytestExitCode(0, false, 'if-nonzero')).toBeNull();
    expect(pytestExitCode(0, false, 'none')).toBeNull();
    expect(pytestExitCode(1, true, 'exact')).toBeNull();
    expect(pytestExitCode(null, false, 'exact')).toBeNull();
  });
});
