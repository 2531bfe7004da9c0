/**
 * Whether a simple command runs a pytest suite: `pytest`, `py.test`, `python3 -m pytest` (with any
 * interpreter options and pytest arguments). `echo pytest` and `grep pytest x` run nothing, and
 * `pytest --version`, `--help` or `--collect-only` run no test, so none of them counts.
 */
import type { Word } from './shell-words.js';
import { programName } from './shell-wrappers.js';

const PYTEST_PROGRAMS = new Set(['pytest', 'py.test', 'pytest-3', 'pytest3']);
const INFO_ONLY = new Set([
  '--version',
  '-V',
  '-h',
  '--help',
  '--co',
  '--collect-only',
  '--fixtures',
  '--fixtures-per-test',
  '--markers',
  '--setup-only',
  '--setup-plan',
]);

/** The arguments given to pytest when the command runs tests with it; null otherwise. */
export function pytestArguments(argv: readonly Word[]): Word[] | null {
  const name = programName(argv[0]);
  if (name === null) return null;
  let args: Word[] | null = null;
  if (PYTEST_PROGRAMS.has(name)) args = argv.slice(1);
  else if (/^python(\d+(\.\d+)?)?$/.test(name)) args = pythonPytestArguments(argv);
  if (args === null || args.some((w) => INFO_ONLY.has(w.text))) return null;
  return args;
}

/** `python3 -B -m pytest -q` → [-q]; `python3 /usr/bin/pytest` too; anything else → null. */
function pythonPytestArguments(argv: readonly Word[]): Word[] | null {
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i] as Word;
    const t = w.text;
    if (!t.startsWith('-') || t === '-') {
      return PYTEST_PROGRAMS.has(programName(w) ?? '') ? argv.slice(i + 1) : null;
    }
    if (t.startsWith('--')) {
      if (t === '--check-hash-based-pycs') i++;
      continue;
    }
    for (let j = 1; j < t.length; j++) {
      const c = t[j] as string;
      if (c === 'c') return null;
      if (c === 'm') {
        const inline = t.slice(j + 1);
        const module = inline === '' ? argv[i + 1]?.text : inline;
        const rest = argv.slice(inline === '' ? i + 2 : i + 1);
        return module === 'pytest' || module === 'py.test' ? rest : null;
      }
      if (c === 'W' || c === 'X') {
        if (j === t.length - 1) i++;
        break;
      }
    }
  }
  return null;
}
