import { describe, expect, it } from 'vitest';
import { pytestArguments } from '../../src/scoring/pytest.js';
import { argvWords } from './call-fixtures.js';

const runsPytest = (argv: string[]): boolean => pytestArguments(argvWords(...argv)) !== null;

describe('pytestArguments: a traced program that really runs a pytest suite', () => {
  it.each([
    [['pytest']],
    [['python3', '-m', 'pytest', '-q']],
    [['python', '-m', 'pytest', 'tests/']],
    [['python3.11', '-B', '-m', 'pytest']],
    [['python3', '-mpytest']],
    [['python3', '-X', 'dev', '-m', 'pytest']],
    [['py.test', '-x']],
    [['/usr/bin/pytest', '-k', 'parse']],
    [['python3', '/usr/bin/pytest']],
  ])('%j runs pytest', (argv) => {
    expect(runsPytest(argv)).toBe(true);
  });

  it.each([
    [['echo', 'pytest']],
    [['echo', 'python3 -m pytest']],
    [['grep', 'pytest', 'requirements.txt']],
    [['pip', 'install', 'pytest']],
    [['python3', '-c', 'import pytest']],
    [['pytest', '--version']],
    [['python3', '-m', 'pytest', '--collect-only']],
    [['pytest', '--co', '-q']],
    [['cat', 'pytest.ini']],
    [['python3', 'pytest_helper.py']],
    [['python3', '-m', 'pip', 'show', 'pytest']],
  ])('%j does not', (argv) => {
    expect(runsPytest(argv)).toBe(false);
  });

  it('returns the arguments given to pytest', () => {
    const args = pytestArguments(argvWords('python3', '-B', '-m', 'pytest', '-q', 'tests/'));
    expect(args?.map((w) => w.text)).toEqual(['-q', 'tests/']);
  });
});
