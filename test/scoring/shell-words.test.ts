import { describe, expect, it } from 'vitest';
import { expandBraces, hasGlob, operandPaths } from '../../src/scoring/operands.js';
import { parseCommandLine } from '../../src/scoring/shell-commands.js';
import { tokenize } from '../../src/scoring/shell-words.js';

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

describe('operands', () => {
  it('expands braces, leaves single groups and escaped braces alone', () => {
    expect(expandBraces('a{b,c{d,e}}f')).toEqual(['abf', 'acdf', 'acef']);
    expect(expandBraces('{x}')).toEqual(['{x}']);
    expect(expandBraces('\\{a,b}')).toEqual(['\\{a,b}']);
  });

  it('tells globs from quoted stars', () => {
    expect(hasGlob('*.py')).toBe(true);
    expect(hasGlob('\\*.py')).toBe(false);
    expect(hasGlob('[ab].py')).toBe(true);
    const [quoted] = tokenize("'*.py'");
    if (quoted?.kind !== 'word') throw new Error('no word');
    expect(operandPaths(quoted.word, '/w')).toEqual([{ glob: false, path: '/w/*.py' }]);
  });
});

describe('parseCommandLine', () => {
  it('tracks cd for the commands after it, not out of subshells', () => {
    const cmds = parseCommandLine('cd a; (cd b; ls); ls; cd; ls', '/workspace');
    expect(cmds.filter((c) => c.argv[0]?.text === 'ls').map((c) => c.cwd)).toEqual([
      '/workspace/a/b',
      '/workspace/a',
      null,
    ]);
  });

  it('strips wrappers down to the program', () => {
    const [cmd] = parseCommandLine(
      'sudo -E env -u X Y=2 nice -n 5 timeout -s KILL 30 stdbuf -oL python3 t.py',
      '/w',
    );
    expect(cmd?.argv.map((w) => w.text)).toEqual(['python3', 't.py']);
    expect(parseCommandLine('command -v pytest', '/w')).toEqual([]);
  });
});
