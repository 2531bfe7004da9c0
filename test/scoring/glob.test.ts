import { describe, expect, it } from 'vitest';
import { compileGlob, matchesWorkspaceGlob } from '../../src/scoring/glob.js';

const full = (pattern: string, path: string): boolean => compileGlob(pattern).test(path);

describe('compileGlob', () => {
  it.each<[string, string, boolean]>([
    ['*.py', 'main.py', true],
    ['*.py', '.hidden.py', true],
    ['*.py', 'pkg/main.py', false],
    ['services/*.py', 'services/a.py', true],
    ['services/*.py', 'services/sub/a.py', false],
    ['services/**/*.py', 'services/a.py', true],
    ['services/**/*.py', 'services/x/y/a.py', true],
    ['**/*.py', 'a.py', true],
    ['**/*.py', 'a/b/c.py', true],
    ['output/**', 'output/a', true],
    ['output/**', 'output/a/b', true],
    ['output/**', 'output', false],
    ['**', 'anything/at/all', true],
    ['a**b', 'axxb', true],
    ['a**b', 'ax/xb', false],
    ['test_?.py', 'test_1.py', true],
    ['test_?.py', 'test_12.py', false],
    ['?', '/', false],
    ['[abc].txt', 'b.txt', true],
    ['[a-c].txt', 'd.txt', false],
    ['[!a-c].txt', 'd.txt', true],
    ['[^a-c].txt', 'a.txt', false],
    ['x[/]y', 'x/y', false],
    ['[]a].txt', '].txt', true],
    ['[unclosed', '[unclosed', true],
    ['\\*.py', '*.py', true],
    ['\\*.py', 'a.py', false],
    ['a.b', 'axb', false],
    ['(x)+', '(x)+', true],
    ['/workspace/*.py', '/workspace/m.py', true],
    ['/workspace/*.py', '/workspace/a/m.py', false],
  ])('%s vs %s -> %s', (pattern, path, expected) => {
    expect(full(pattern, path)).toBe(expected);
  });
});

describe('matchesWorkspaceGlob (the .gitignore rule)', () => {
  it.each<[string, string, boolean]>([
    ['__pycache__', '__pycache__/m.cpython-311.pyc', true],
    ['__pycache__', 'services/__pycache__/m.cpython-311.pyc', true],
    ['__pycache__', 'services/__pycache__', true],
    ['.pytest_cache', '.pytest_cache/v/cache/nodeids', true],
    ['*.pyc', 'a/b/c.pyc', true],
    ['*.pyc', 'a/b/c.py', false],
    ['main.py', 'main.py', true],
    ['main.py', 'pkg/main.py', true],
    ['/main.py', 'main.py', true],
    ['/main.py', 'pkg/main.py', false],
    ['/test_*.py', 'test_x.py', true],
    ['/test_*.py', 'sub/test_x.py', false],
    ['services/*.py', 'services/a.py', true],
    ['services/*.py', 'x/services/a.py', false],
    ['services/*.py', 'services/a/b.py', false],
    ['output', 'output/report/x.txt', true],
    ['output/', 'output/x.txt', true],
    ['output/', 'output', false],
    ['output/*', 'output/deep/x.txt', true],
    ['', 'x', false],
    ['/', 'x', false],
  ])('%s vs %s -> %s', (pattern, path, expected) => {
    expect(matchesWorkspaceGlob(pattern, path)).toBe(expected);
  });
});
