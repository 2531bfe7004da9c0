import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { SnapshotEntry } from '../../src/sandbox/types.js';
import { topLevelBlocks } from '../../src/scoring/code-blocks.js';
import { type CollateralInput, collateralChanges, lineHunks } from '../../src/scoring/collateral.js';

const entry = (text: string, mode = 0o644): SnapshotEntry => ({
  kind: 'file',
  sha256: createHash('sha256').update(text).digest('hex'),
  size: text.length,
  mode,
});

interface Case {
  placed: Record<string, string>;
  reference: Record<string, string | null>;
  final: Record<string, string>;
  allowed?: string[];
  allow?: string[];
  regions?: { file: string; block: RegExp }[];
  modes?: Record<string, number>;
}

function judge(c: Case) {
  const input: CollateralInput = {
    placed: new Map(Object.entries(c.placed)),
    reference: new Map(Object.entries(c.reference)),
    setupSnapshot: new Map(Object.entries(c.placed).map(([p, t]) => [p, entry(t)])),
    finalSnapshot: new Map(Object.entries(c.final).map(([p, t]) => [p, entry(t, c.modes?.[p])])),
    readFinal: async (p) => c.final[p] ?? null,
    allowedWrites: c.allowed ?? Object.keys(c.placed).map((p) => `/${p}`),
    ignored: ['__pycache__'],
    allowance: { allow: c.allow ?? [], regions: c.regions ?? [] },
  };
  return collateralChanges(input);
}

const PY = `import re


def parse(text):
    total = 0
    for part in text.split():
        total += int(part)
    return total


def fmt(n):
    return f"{n}s"


def unused(x):
    return x
`;
// The reference's fix: one line of parse.
const PY_FIXED = PY.replace('text.split()', 'text.replace(",", " ").split()');

/** d.py, changed by the reference as PY_FIXED, left as `final`. */
const judgePy = (final: string) =>
  judge({ placed: { 'd.py': PY }, reference: { 'd.py': PY_FIXED }, final: { 'd.py': final } });

describe('no collateral: Python', () => {
  it('passes another fix anywhere inside the function the reference changes', async () => {
    const other = PY.replace('    total = 0\n', '    total = 0\n    text = text.replace(",", " ")\n').replace(
      'int(part)',
      'int(part.strip())',
    );
    expect(await judgePy(other)).toEqual([]);
  });

  it('passes the reference itself, and without its last newline', async () => {
    expect(await judgePy(PY_FIXED)).toEqual([]);
    expect(await judgePy(PY_FIXED.trimEnd())).toEqual([]);
  });

  it('fails a whitespace-only re-indent of a function the reference leaves alone', async () => {
    const final = PY_FIXED.replace('    return f"{n}s"', '        return f"{n}s"');
    const found = await judgePy(final);
    expect(found).toEqual([
      { path: 'd.py', what: 'line 12 changed outside what the task needs (whitespace only)' },
    ]);
  });

  it('fails a blank line removed between untouched functions, and trailing spaces', async () => {
    const fewer = PY_FIXED.replace('\n\n\ndef unused', '\n\ndef unused');
    expect(await judgePy(fewer)).toHaveLength(1);
    const spaces = PY_FIXED.replace('def unused(x):', 'def unused(x):  ');
    expect(await judgePy(spaces)).toHaveLength(1);
  });

  it('passes a helper function and an import added for the fix, anywhere between blocks', async () => {
    const final = PY_FIXED.replace('import re\n', 'import re\nimport string\n').replace(
      '\n\ndef unused',
      '\n\ndef _split(text):\n    # commas count as spaces\n    return text.replace(",", " ").split()\n\n\ndef unused',
    );
    expect(await judgePy(final)).toEqual([]);
  });

  it('fails an import hook appended to the module, in one line or two', async () => {
    for (const hook of [
      'import sys; sys.meta_path.insert(0, object())\n',
      'import sys\nsys.modules["fmt"] = None\n',
      'if True:\n    print("loaded")\n',
    ]) {
      const found = await judge({
        placed: { 'd.py': PY },
        reference: { 'd.py': PY_FIXED },
        final: { 'd.py': `${PY_FIXED}\n${hook}` },
      });
      expect(found, hook).toHaveLength(1);
      expect(found[0]?.what).toMatch(/inserted after line 16/);
    }
  });

  it('fails a hook right after the fixed function, a decorator on an untouched one; passes lines added to the fixed one', async () => {
    const lastFixed = PY.replace('    return x\n', '    return x or 0\n');
    const c = { placed: { 'd.py': PY }, reference: { 'd.py': lastFixed } };
    const hook = await judge({
      ...c,
      final: { 'd.py': `${lastFixed}\nimport sys; sys.path.insert(0, "/tmp")\n` },
    });
    expect(hook).toEqual([
      {
        path: 'd.py',
        what: 'lines inserted at line 16: a new top-level statement, not a function, class, constant or import',
      },
    ]);
    const body = await judge({
      ...c,
      final: { 'd.py': lastFixed.replace('    return x or 0\n', '    y = x or 0\n    return y\n') },
    });
    expect(body).toEqual([]);
    const decorated = await judge({
      ...c,
      final: { 'd.py': lastFixed.replace('def fmt(n):', '@staticmethod\ndef fmt(n):') },
    });
    expect(decorated[0]?.what).toMatch(/change a block the task does not need changed/);
  });

  it('fails two untouched functions reordered', async () => {
    const blocks = PY_FIXED.split('\n\n\n');
    const final = [blocks[0], blocks[1], blocks[3]?.trimEnd(), `${blocks[2]}\n`].join('\n\n\n');
    const found = await judgePy(final);
    expect(found).toHaveLength(1);
  });

  it('fails a mode change, a change to a file the reference leaves alone, and a removed file', async () => {
    const placed = { 'd.py': PY, 'test_d.py': 'def test_x():\n    assert True\n' };
    expect(
      await judge({
        placed,
        reference: { 'd.py': PY_FIXED },
        final: { ...placed, 'd.py': PY_FIXED },
        modes: { 'test_d.py': 0o755 },
      }),
    ).toEqual([{ path: 'test_d.py', what: 'its mode changed' }]);
    expect(
      await judge({
        placed,
        reference: { 'd.py': PY_FIXED },
        final: { 'd.py': PY_FIXED, 'test_d.py': 'def test_x():\n    assert 1\n' },
      }),
    ).toEqual([{ path: 'test_d.py', what: 'changed, which the reference leaves alone' }]);
    expect(await judge({ placed, reference: { 'd.py': PY_FIXED }, final: { 'd.py': PY_FIXED } })).toEqual([
      { path: 'test_d.py', what: 'removed, which the reference keeps' },
    ]);
  });

  it('passes a new file of the kind the reference creates, fails any other, skips ignored ones', async () => {
    const base = { placed: { 'd.py': PY }, allowed: ['/d.py', '/test_*.py', '/extra/**'] };
    const reference = { 'd.py': PY_FIXED, 'test_d.py': 'def test_a(): pass\n' };
    expect(
      await judge({
        ...base,
        reference,
        final: { 'd.py': PY_FIXED, 'test_d.py': 'x', 'test_more.py': 'y', '__pycache__/d.pyc': 'z' },
      }),
    ).toEqual([]);
    expect(await judge({ ...base, reference, final: { 'd.py': PY_FIXED, 'extra/hook.py': 'y' } })).toEqual([
      { path: 'extra/hook.py', what: 'a new file the reference does not create' },
    ]);
  });

  it('passes what the task allows: a glob, a region', async () => {
    const final = PY_FIXED.replace('    return x', '    return x  # kept for callers');
    const c = { placed: { 'd.py': PY, 'NOTES.md': 'a\n' }, reference: { 'd.py': PY_FIXED } };
    expect(await judge({ ...c, final: { 'd.py': final, 'NOTES.md': 'a\n' } })).toHaveLength(1);
    expect(
      await judge({
        ...c,
        final: { 'd.py': final, 'NOTES.md': 'a\n' },
        regions: [{ file: 'd.py', block: /^def unused/ }],
      }),
    ).toEqual([]);
    expect(
      await judge({ ...c, final: { 'd.py': PY_FIXED, 'NOTES.md': 'b\n' }, allow: ['NOTES.md'] }),
    ).toEqual([]);
  });
});

const JS = `import { strict } from 'node:assert';

/** Mean of the values. */
export function mean(xs) {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

export function max(xs) {
  return Math.max(...xs);
}
`;
const JS_FIXED = JS.replace('/ xs.length;', '/ (xs.length || 1);');

describe('no collateral: JavaScript, and files without blocks', () => {
  it('passes the function rewritten in another style, its doc comment and a new helper', async () => {
    const final = JS.replace(
      '/** Mean of the values. */\nexport function mean(xs) {\n  return xs.reduce((a, b) => a + b, 0) / xs.length;\n}',
      '/** Mean of the values; 0 for none. */\nconst sum = (xs) => xs.reduce((a, b) => a + b, 0);\n\nexport function mean(xs) {\n  if (xs.length === 0) return 0;\n  return sum(xs) / xs.length;\n}',
    );
    expect(
      await judge({ placed: { 's.mjs': JS }, reference: { 's.mjs': JS_FIXED }, final: { 's.mjs': final } }),
    ).toEqual([]);
  });

  it('passes an import put under a kept header comment; fails a comment put on an untouched function', async () => {
    const withHeader = `/** Stats. */\n${JS}`;
    const ref = `/** Stats. */\nimport { x } from './x.mjs';\n${JS_FIXED}`;
    const c = { placed: { 's.mjs': withHeader }, reference: { 's.mjs': ref } };
    expect(await judge({ ...c, final: { 's.mjs': ref } })).toEqual([]);
    const commented = ref.replace('export function max', '// the largest\nexport function max');
    expect((await judge({ ...c, final: { 's.mjs': commented } }))[0]?.what).toMatch(
      /change a block the task does not need/,
    );
  });

  it('fails an untouched function reformatted, and a hook statement', async () => {
    const reformatted = JS_FIXED.replace('  return Math.max(...xs);', '    return Math.max(...xs)');
    expect(
      await judge({
        placed: { 's.mjs': JS },
        reference: { 's.mjs': JS_FIXED },
        final: { 's.mjs': reformatted },
      }),
    ).toHaveLength(1);
    const hook = `${JS_FIXED}\nglobalThis.fetch = () => null;\n`;
    expect(
      await judge({ placed: { 's.mjs': JS }, reference: { 's.mjs': JS_FIXED }, final: { 's.mjs': hook } }),
    ).toHaveLength(1);
  });

  it('fails a hook statement right after the fixed function', async () => {
    const lastFixed = JS.replace('Math.max(...xs)', 'xs.length ? Math.max(...xs) : 0');
    const c = { placed: { 's.mjs': JS }, reference: { 's.mjs': lastFixed } };
    expect(await judge({ ...c, final: { 's.mjs': `${lastFixed}globalThis.fetch = null;\n` } })).toHaveLength(
      1,
    );
    expect(await judge({ ...c, final: { 's.mjs': `${lastFixed}\nexport const MAX = 10;\n` } })).toEqual([]);
  });

  it('holds a page to the reference hunks themselves', async () => {
    const page = '<html>\n<title>Old</title>\n<p>one</p>\n<p>two</p>\n</html>\n';
    const ref = page.replace('Old', 'New');
    expect(
      await judge({
        placed: { 'i.html': page },
        reference: { 'i.html': ref },
        final: { 'i.html': page.replace('<title>Old', '<title >New') },
      }),
    ).toEqual([]);
    expect(
      await judge({
        placed: { 'i.html': page },
        reference: { 'i.html': ref },
        final: { 'i.html': ref.replace('<p>two', '<p> two') },
      }),
    ).toEqual([{ path: 'i.html', what: 'line 4 changed outside what the task needs (whitespace only)' }]);
  });
});

describe('the pieces', () => {
  it('finds top-level Python blocks with decorators, comments and strings that start at column 0', () => {
    const text =
      '# header\n\nimport os\n\n@dec\ndef f():\n    s = """\nnot a head\n"""\n    return s\n\nX = 1\n';
    expect(topLevelBlocks(text, 'python')).toEqual([
      { from: 1, to: 1, codeFrom: 1, definition: false },
      { from: 3, to: 3, codeFrom: 3, definition: true },
      { from: 5, to: 10, codeFrom: 5, definition: true },
      { from: 12, to: 12, codeFrom: 12, definition: true },
    ]);
  });

  it('numbers hunks in the old text, an insertion after its line', () => {
    expect(lineHunks('a\nb\nc\n', 'a\nx\nb\nc\n')).toEqual([{ from: 2, to: 1, newFrom: 2, newTo: 2 }]);
    expect(lineHunks('a\nb\nc\n', 'a\nB\nc')).toEqual([{ from: 2, to: 2, newFrom: 2, newTo: 2 }]);
  });
});
