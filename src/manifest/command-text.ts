/**
 * The texts a required command's pattern is matched against: the argv a process really received,
 * words joined by spaces (quoting is gone, so `--title 'Week 48'` is `--title Week 48`), in two
 * option forms — as run, and with every `--opt=value` split into `--opt value` — and three path
 * forms — as typed, as seen from /workspace (`cd output && x ../skill/s.py index.html` reads
 * `x skill/s.py output/index.html`), and absolute. So a pattern written for `--input x.csv` from
 * /workspace also matches `--input=x.csv`, `--input 'x.csv'`, and `--input ../x.csv` from a folder.
 */
import { posix } from 'node:path';
import { workspaceRelative } from '../scoring/paths.js';
import type { ProgramRun } from '../scoring/program-runs.js';

export interface CommandText {
  text: string;
  /** Where the words up to the program (the interpreter and its script, if any) end in `text`. */
  programEnd: number;
}

type PathForm = 'typed' | 'workspace' | 'absolute';
const PATH_FORMS: readonly PathForm[] = ['typed', 'workspace', 'absolute'];

export function commandTexts(run: Pick<ProgramRun, 'argv' | 'program' | 'word' | 'process'>): CommandText[] {
  const seen = new Map<string, CommandText>();
  for (const split of [false, true])
    for (const form of PATH_FORMS) {
      const t = render(run, form, split);
      seen.set(`${t.programEnd}:${t.text}`, t);
    }
  return [...seen.values()];
}

/** The argv as one line, as run, for messages. */
export function shownCommand(argv: readonly string[]): string {
  return argv.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replaceAll("'", `'\\''`)}'`)).join(' ');
}

function render(
  run: Pick<ProgramRun, 'argv' | 'program' | 'word' | 'process'>,
  form: PathForm,
  split: boolean,
): CommandText {
  const cwd = run.process.cwd;
  const path = (w: string): string => {
    if (form === 'typed' || w === '' || (cwd === null && !w.startsWith('/'))) return w;
    const abs = posix.resolve(cwd ?? '/', w);
    if (form === 'absolute') return abs;
    const rel = workspaceRelative(abs);
    return rel === null ? abs : rel === '' ? '.' : rel;
  };
  const before = run.argv.slice(0, run.word);
  const typed = run.argv[run.word] ?? '';
  // The program's own word: its resolved forms are the program's path (the file executed, the script).
  const isPath = run.program !== null && (run.word === 0 || resolves(cwd, typed, run.program));
  const program = isPath && form !== 'typed' ? path(run.program as string) : typed;
  const args = run.argv.slice(run.word + 1).flatMap((w): string[] => {
    const option = /^(--[A-Za-z0-9][\w-]*)=([\s\S]*)$/.exec(w);
    if (option === null) return [w.startsWith('-') ? w : path(w)];
    const [, name, value] = option as unknown as [string, string, string];
    return split ? [name, path(value)] : [`${name}=${path(value)}`];
  });
  const head = [...before, program].join(' ');
  return { text: [head, ...args].join(' '), programEnd: head.length };
}

function resolves(cwd: string | null, word: string, program: string): boolean {
  if (word.startsWith('/')) return posix.normalize(word) === program;
  return cwd !== null && posix.resolve(cwd, word) === program;
}
