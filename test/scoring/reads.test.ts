import { describe, expect, it } from 'vitest';
import { filesReadBy } from '../../src/scoring/commands.js';
import type { ReadTarget } from '../../src/scoring/read-target.js';
import { readFile, shell } from './call-fixtures.js';

/** A compact form of a read: the path, `glob:` pattern, or `tree:` root (with filter). */
function show(t: ReadTarget): string {
  if (t.kind === 'file') return t.path;
  if (t.kind === 'glob') return `glob:${t.pattern}`;
  const f = t.filter;
  const extra = [
    ...f.include.map((g) => `+${g}`),
    ...f.exclude.map((g) => `-${g}`),
    ...f.excludeDir.map((g) => `-dir:${g}`),
  ];
  if (f.maxDepth !== null) extra.push(`depth:${f.maxDepth}`);
  return `tree:${t.root}${extra.length > 0 ? ` ${extra.join(' ')}` : ''}`;
}

const reads = (command: string, cwd = '/workspace'): string[] =>
  filesReadBy(shell(command, { cwd })).map(show);

describe('filesReadBy: shell reads are operands, never substrings', () => {
  it.each<[string, string[]]>([
    ['cat main.py', ['/workspace/main.py']],
    ['cat notes_old/main.py.bak', ['/workspace/notes_old/main.py.bak']],
    ['python main.py | grep x', []],
    ['python3 main.py', []],
    ['echo cat main.py', []],
    ['git show HEAD:main.py', []],
    ['cat ./main.py', ['/workspace/main.py']],
    ['cat /workspace/../workspace//main.py', ['/workspace/main.py']],
    ['cd src && cat ../main.py', ['/workspace/main.py']],
    ['cd /tmp; cat main.py', ['/tmp/main.py']],
    ['(cd sub && cat a.py); cat b.py', ['/workspace/sub/a.py', '/workspace/b.py']],
    ['cd sub | true; cat a.py', ['/workspace/a.py']],
    ['cd "$DIR" && cat a.py', []],
    ['head -n 20 main.py', ['/workspace/main.py']],
    ['head -20 main.py', ['/workspace/main.py']],
    ['tail -n +5 main.py', ['/workspace/main.py']],
    ["sed -n '1,40p' main.py", ['/workspace/main.py']],
    ["sed -i 's/a/b/' main.py", []],
    ["sed -e 's/a/b/' -n main.py", ['/workspace/main.py']],
    ["awk -F, -v x=1 '{print $1}' data.csv", ['/workspace/data.csv']],
    ["awk '{print}' n=3 data.csv", ['/workspace/data.csv']],
    ['grep -n total durations.py', ['/workspace/durations.py']],
    ['grep -e foo -e bar main.py', ['/workspace/main.py']],
    ['grep -A 3 -m1 total main.py', ['/workspace/main.py']],
    ['grep total', []],
    ['grep -q total main.py', []],
    ['grep -rn TAX_RATE .', ['tree:/workspace']],
    ['grep -rn TAX_RATE', ['tree:/workspace']],
    ['grep -Rl TAX_RATE services/', ['tree:/workspace/services']],
    ["grep -r --include='*.py' --exclude-dir=tests TAX_RATE .", ['tree:/workspace +*.py -dir:tests']],
    ['grep -rn --include *.txt TAX_RATE .', ['tree:/workspace +*.txt']],
    ['grep -rl TAX -- services', ['tree:/workspace/services']],
    ['rg TAX_RATE', ['tree:/workspace']],
    ["rg -g '!tests' TAX_RATE src", ['tree:/workspace/src -tests']],
    ['cat services/*.py', ['glob:/workspace/services/*.py']],
    ['grep -n TAX services/*.py', ['glob:/workspace/services/*.py']],
    [
      'cat services/{invoicing,quotes}.py',
      ['/workspace/services/invoicing.py', '/workspace/services/quotes.py'],
    ],
    ["cat 'services/*.py'", ['/workspace/services/*.py']],
    ['cat "$F"', []],
    ['cat ~/x.py', []],
    ['cat main.py > copy.py', []],
    ['cat main.py >/dev/null', []],
    ['cat main.py 2>/dev/null', ['/workspace/main.py']],
    ['cat main.py >&2', ['/workspace/main.py']],
    ['cat < main.py', ['/workspace/main.py']],
    ['cat main.py | head -5', ['/workspace/main.py']],
    ["bash -c 'cat main.py'", ['/workspace/main.py']],
    ["sh -ec 'cd sub; cat a.py'", ['/workspace/sub/a.py']],
    ['sudo -u root cat /etc/shadow', ['/etc/shadow']],
    ['timeout 5 cat main.py', ['/workspace/main.py']],
    ['env -C sub cat a.py', ['/workspace/sub/a.py']],
    ['FOO=1 cat a.py', ['/workspace/a.py']],
    ['echo "$(cat main.py)"', ['/workspace/main.py']],
    ['cat <<EOF > main.py\ncat secret.py\nEOF\ncat after.py', ['/workspace/after.py']],
    ["find . -name '*.py' -exec cat {} \\;", ['tree:/workspace +*.py']],
    [
      'find services -maxdepth 1 -name "*.py" -exec grep -n TAX {} +',
      ['tree:/workspace/services +*.py depth:1'],
    ],
    ['find services -name "*.py" | xargs grep -n TAX', ['tree:/workspace/services +*.py']],
    ["find . -name '*.py' -exec sed -i s/a/b/ {} +", []],
    ["find . -name '*.py'", []],
    ['ls services; wc -l services/*.py', []],
    ['nl -ba main.py', ['/workspace/main.py']],
    ['less +G main.py', ['/workspace/main.py']],
    ['for f in *.py; do cat $f; done', []],
    ['cat a.py && cat b.py || cat c.py', ['/workspace/a.py', '/workspace/b.py', '/workspace/c.py']],
    ['cat a.py # cat b.py', ['/workspace/a.py']],
    ['cat a\\ b.py "c d.py"', ['/workspace/a b.py', '/workspace/c d.py']],
  ])('%s', (command, expected) => {
    expect(reads(command)).toEqual(expected);
  });

  it('resolves against the directory the call ran in', () => {
    expect(reads('cat x.py', '/workspace/sub')).toEqual(['/workspace/sub/x.py']);
  });

  it('read_file resolves its path and records the part asked for', () => {
    expect(filesReadBy(readFile('./x.py'))).toEqual([{ kind: 'file', path: '/workspace/x.py', range: null }]);
    expect(filesReadBy(readFile('x.py', { offset: 4000 }))).toEqual([
      { kind: 'file', path: '/workspace/x.py', range: '4000:' },
    ]);
  });

  it('a failed or refused read_file read nothing', () => {
    expect(filesReadBy(readFile('x.py', {}, { exit: 1 }))).toEqual([]);
    expect(filesReadBy({ ...readFile('x.py'), invalid: 'bad_arguments' })).toEqual([]);
  });

  it('never throws on malformed input', () => {
    for (const command of [
      'cat "unclosed',
      "echo 'x",
      'cat $(echo',
      '( ( cat a',
      ')) ;; && || |',
      'cat <<EOF',
      '`',
    ]) {
      expect(() => reads(command)).not.toThrow();
    }
  });
});
