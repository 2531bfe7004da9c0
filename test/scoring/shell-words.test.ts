import { describe, expect, it } from 'vitest';
import { tokenize, type Word } from '../../src/scoring/shell-words.js';
import { unwrap } from '../../src/scoring/shell-wrappers.js';

const words = (src: string): string[] =>
  tokenize(src).flatMap((t) =>
    t.kind === 'word' ? [t.word.text] : t.kind === 'op' ? [`<${t.op}>`] : [`[${t.op}]`],
  );

describe('tokenize', () => {
  it('removes quotes and escapes, keeps comments and continuations out', () => {
    expect(words(`echo "a b" 'c d' e\\ f # comment\nls`)).toEqual([
      'echo',
      'a b',
      'c d',
      'e f',
      '<\n>',
      'ls',
    ]);
    expect(words('echo a\\\nb')).toEqual(['echo', 'ab']);
    expect(words(`echo $'x\\ty' "q\\"q" a#b`)).toEqual(['echo', 'x\ty', 'q"q', 'a#b']);
  });

  it('splits operators, including doubled ones and descriptor redirections', () => {
    expect(words('a&&b||c|d;e&f')).toEqual([
      'a',
      '<&&>',
      'b',
      '<||>',
      'c',
      '<|>',
      'd',
      '<;>',
      'e',
      '<&>',
      'f',
    ]);
    expect(words('pytest 2>&1 >out <in &>all')).toEqual(['pytest', '[>&]', '[>]', '[<]', '[&>]']);
  });

  it('reads here-document bodies as data', () => {
    const tokens = tokenize("cat <<'EOF' > f.py\nrm -rf /\nEOF\necho done");
    const redirect = tokens.find((t) => t.kind === 'redirect' && t.op === '<<');
    expect(redirect?.kind === 'redirect' ? redirect.heredoc : null).toBe('rm -rf /');
    expect(words("cat <<'EOF' > f.py\nrm -rf /\nEOF\necho done")).toEqual([
      'cat',
      '[<<]',
      '[>]',
      '<\n>',
      'echo',
      'done',
    ]);
    expect(words('cat <<-X\n\tbody\n\tX\nls')).toEqual(['cat', '[<<-]', '<\n>', 'ls']);
  });

  it('marks expansions dynamic and keeps substitution sources', () => {
    const [, w] = tokenize('echo "$(cat a.py)"x');
    expect(w?.kind === 'word' && w.word.dynamic).toBe(true);
    expect(w?.kind === 'word' ? w.word.substitutions : []).toEqual(['cat a.py']);
    const [, tick] = tokenize('echo `cat b.py`');
    expect(tick?.kind === 'word' ? tick.word.substitutions : []).toEqual(['cat b.py']);
  });
});

describe('unwrap', () => {
  const argv = (src: string): Word[] => tokenize(src).flatMap((t) => (t.kind === 'word' ? [t.word] : []));

  it('strips wrappers down to the program', () => {
    const unwrapped = unwrap(
      argv('sudo -E env -u X Y=2 nice -n 5 timeout -s KILL 30 stdbuf -oL python3 t.py'),
    );
    expect(unwrapped.kind === 'program' ? unwrapped.argv.map((w) => w.text) : unwrapped).toEqual([
      'python3',
      't.py',
    ]);
    expect(unwrap(argv('command -v pytest'))).toEqual({ kind: 'none' });
  });
});
