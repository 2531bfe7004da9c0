/**
 * The texts a required command's pattern is matched against: the argv a process really received,
 * words joined by spaces (quoting is gone, so `--title 'Week 48'` is `--title Week 48`), in two
 * option forms — as run, and with every `--opt=value` split into `--opt value` — and three path
 * forms — as typed, as seen from /workspace (`cd output && x ../skill/s.py index.html` reads
 * `x skill/s.py output/index.html`), and absolute. So a pattern written for `--input x.csv` from
 * /workspace also matches `--input=x.csv`, `--input 'x.csv'`, and `--input ../x.csv` from a folder.
 *
 * Paths are anchored: a pattern names a workspace file relative to /workspace, so an argument that
 * resolves outside it (`/tmp/output/index.html`, or `output/index.html` run from /tmp) is kept
 * absolute in every form, and each text lists such words (`outside`) so the matcher can tell a
 * pattern naming that path from one whose `\S*output/index\.html` only matched its suffix.
 */
import { posix } from 'node:path';
import { workspaceRelative } from '../scoring/paths.js';
import type { ProgramRun } from '../scoring/program-runs.js';

export interface CommandText {
  text: string;
  /** Where the words up to the program (the interpreter and its script, if any) end in `text`. */
  programEnd: number;
  /**
   * For each argument resolving outside /workspace: the text with that word replaced by an opaque
   * token, and with the word moved under another directory (`/\u0001/tmp/x`). A match that needs
   * the word but still holds once it is moved named only its suffix, not where it is.
   */
  outside: { opaque: string; moved: string }[];
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
  /** The word as the form shows it, and whether it names a place outside /workspace. */
  const path = (w: string): { shown: string; outside: boolean } => {
    if (w === '' || (cwd === null && !w.startsWith('/'))) return { shown: w, outside: false };
    const abs = posix.resolve(cwd ?? '/', w);
    const rel = workspaceRelative(abs);
    // A bare word (`Week`, `index.html`) typed from outside the workspace stays as typed there: it
    // may be no path at all; its resolved forms still carry where it would be.
    if (rel === null && (form !== 'typed' || w.includes('/'))) return { shown: abs, outside: true };
    if (form === 'typed') return { shown: w, outside: false };
    if (form === 'absolute') return { shown: abs, outside: false };
    return { shown: rel === null ? abs : rel === '' ? '.' : rel, outside: false };
  };
  const before = run.argv.slice(0, run.word);
  const typed = run.argv[run.word] ?? '';
  // The program's own word: its resolved forms are the program's path (the file executed, the script).
  const isPath = run.program !== null && (run.word === 0 || resolves(cwd, typed, run.program));
  const program = isPath && form !== 'typed' ? programPath(run.program as string, form) : typed;
  // Each argument as words, the last of which may be a path (a plain word, or an option's value).
  const args = run.argv
    .slice(run.word + 1)
    .map((w): { lead: string[]; path: { shown: string; outside: boolean } | null } => {
      const option = /^(--[A-Za-z0-9][\w-]*)=([\s\S]*)$/.exec(w);
      if (option === null) return w.startsWith('-') ? { lead: [w], path: null } : { lead: [], path: path(w) };
      const [, name, value] = option as unknown as [string, string, string];
      return split ? { lead: [name], path: path(value) } : { lead: [`${name}=`], path: path(value) };
    });
  const head = [...before, program].join(' ');
  const join = (swap: number, by: (shown: string) => string): string =>
    [
      head,
      ...args.map((a, i) => {
        const p = a.path === null ? '' : i === swap ? by(a.path.shown) : a.path.shown;
        if (a.lead.length === 0) return p;
        const [name] = a.lead as [string];
        return name.endsWith('=') ? `${name}${p}` : a.path === null ? name : `${name} ${p}`;
      }),
    ].join(' ');
  const outside = args.flatMap((a, i) =>
    a.path?.outside === true
      ? [{ opaque: join(i, () => '\u0001'), moved: join(i, (p) => `/\u0001${p}`) }]
      : [],
  );
  return { text: join(-1, (p) => p), programEnd: head.length, outside };
}

/** The program's own path in a resolved form (the file executed, the script). */
function programPath(abs: string, form: PathForm): string {
  if (form === 'absolute') return abs;
  const rel = workspaceRelative(abs);
  return rel === null ? abs : rel === '' ? '.' : rel;
}

function resolves(cwd: string | null, word: string, program: string): boolean {
  if (word.startsWith('/')) return posix.normalize(word) === program;
  return cwd !== null && posix.resolve(cwd, word) === program;
}
