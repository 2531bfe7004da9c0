import { describe, expect, it } from 'vitest';
import { languageOf, lineMutants, maskLiterals } from '../../../src/validate/metamorphic/line-mutants.js';

describe('lineMutants', () => {
  it('mutates only the lines the change touched, each mistake once', () => {
    const before = 'def pct(f):\n    return round(f * 10, 2)\n\ndef keep(x):\n    return x > 1\n';
    const after = 'def pct(f):\n    return round(f * 100, 2)\n\ndef keep(x):\n    return x > 1\n';
    const whats = lineMutants(before, after, 'python').map((m) => `${m.line}:${m.what}`);
    expect(whats).toEqual(['2:* → +', '2:100 → 101', '2:2 → 3', '2:return None', '2:deleted']);
    // The untouched comparison on line 5 is never mutated.
    expect(whats.some((w) => w.startsWith('5:'))).toBe(false);
  });

  it('keeps a mutant where the line was, and the rest of the file as the reference left it', () => {
    const after = 'a = 1\n    total += amount * size\nb = 2\n';
    const [first] = lineMutants('a = 1\n    total = amount * size\nb = 2\n', after, 'python');
    expect(first).toEqual({
      line: 2,
      what: '+= → -=',
      content: 'a = 1\n    total -= amount * size\nb = 2\n',
    });
  });

  it('mutates a condition but never deletes a block line, nor touches imports', () => {
    const after = 'import os\nif x >= limit and ok:\n    y()\n';
    const whats = lineMutants(null, after, 'python').map((m) => `${m.line}:${m.what}`);
    expect(whats).toContain('2:>= → >');
    expect(whats).toContain('2:and → or');
    expect(whats).not.toContain('2:deleted');
    expect(whats.some((w) => w.startsWith('1:'))).toBe(false);
  });

  it('leaves docstrings and block comments alone: their lines are prose', () => {
    const py = 'def f(x):\n    """Round to 2 places.\n    Never below 0.\n    """\n    return x\n';
    expect(lineMutants(null, py, 'python').map((m) => m.line)).toEqual([5, 5]);
    const js = '/**\n * Pages of 10.\n */\nconst n = 10;\n';
    expect(lineMutants(null, js, 'js').map((m) => m.what)).toEqual(['10 → 11', 'deleted']);
  });

  it('leaves strings and comments alone', () => {
    const after = 'const s = "a < b && 3"; // 4 > 5\n';
    const mutants = lineMutants(null, after, 'js');
    expect(mutants.map((m) => m.what)).toEqual(['deleted']);
    const line = `x = 'it\\'s <' # 1 < 2`;
    const masked = maskLiterals(line, 'python');
    expect(masked).toBe(`x = '${' '.repeat(7)}'${' '.repeat(8)}`);
    expect(masked).toHaveLength(line.length);
  });

  it('samples a long change over its whole length, at most twelve per file', () => {
    const after = Array.from({ length: 40 }, (_, i) => `v${i} = ${i}`).join('\n');
    const mutants = lineMutants(null, after, 'python');
    expect(mutants).toHaveLength(12);
    expect(mutants.at(-1)?.line).toBeGreaterThan(30);
  });

  it('knows the languages by extension', () => {
    expect(['a.py', 'b.js', 'c.mjs', 'd.ts', 'e.tsx', 'f.txt'].map(languageOf)).toEqual([
      'python',
      'js',
      'js',
      'js',
      'js',
      null,
    ]);
  });
});
