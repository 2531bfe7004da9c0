/**
 * What a simple command read, by its operands (never by substrings of the line): `cat
 * notes/main.py.bak` reads main.py.bak only, `python main.py | grep x` reads nothing, `grep -r X dir`
 * searched every file under dir. Output sent to a file (`cat a > b`) was not seen, so it is no read.
 */
import { operandPaths } from './operands.js';
import { NO_FILTER, type ReadTarget, type TreeFilter } from './read-target.js';
import { parseReaderArgs, READERS } from './reader-specs.js';
import type { SimpleCommand } from './shell-commands.js';
import type { Redirect, Word } from './shell-words.js';
import { programName } from './shell-wrappers.js';

export function readsOf(cmd: SimpleCommand): ReadTarget[] {
  if (stdoutToFile(cmd.redirects)) return [];
  const name = programName(cmd.argv[0]);
  if (name === 'find') {
    const find = parseFind(cmd.argv);
    return find.exec === null ? [] : searchReads(find.exec, find, cmd.cwd);
  }
  if (name === 'xargs') return xargsReads(cmd);
  return readerReads(cmd.argv, cmd.cwd, cmd.redirects);
}

const SHOWN = new Set(['/dev/stdout', '/dev/stderr', '/dev/tty', '/dev/fd/1', '/dev/fd/2']);

function stdoutToFile(redirects: readonly Redirect[]): boolean {
  return redirects.some((r) => {
    const target = r.target?.text ?? '';
    if (SHOWN.has(target)) return false;
    if (r.op === '&>' || r.op === '&>>') return true;
    if (r.fd !== null && r.fd !== 1) return false;
    if (r.op === '>&') return !/^(\d+|-)$/.test(target);
    return r.op === '>' || r.op === '>>' || r.op === '>|';
  });
}

function readerReads(
  argv: readonly Word[],
  cwd: string | null,
  redirects: readonly Redirect[],
): ReadTarget[] {
  const name = programName(argv[0]);
  const spec = name === null ? undefined : READERS[name];
  if (spec === undefined) return [];
  const args = parseReaderArgs(spec, argv.slice(1));
  if (args.silent) return [];
  let operands = args.operands;
  let script: string[] = [];
  if (spec.script !== undefined && !args.scriptGiven) {
    script = operands.slice(0, 1).map((w) => w.text);
    operands = operands.slice(1);
  }
  if (spec.assignments === true) operands = operands.filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w.text));
  const range = spec.wholeFile ? null : [name, ...args.options, ...script].join(' ');
  const filter: TreeFilter = {
    ...NO_FILTER,
    include: args.include,
    exclude: args.exclude,
    excludeDir: args.excludeDir,
  };
  if (operands.length === 0) {
    // GNU grep -r with no file searches the working directory; other readers read stdin.
    if (args.recursive)
      return cwd === null ? [] : [{ kind: 'tree', root: cwd, rootIsGlob: false, filter, range }];
    const input = redirects.find((r) => r.op === '<' && (r.fd === null || r.fd === 0))?.target;
    operands = input === undefined || input === null ? [] : [input];
  }
  return operands.flatMap((word) =>
    operandPaths(word, cwd).map((p): ReadTarget => {
      if (args.recursive)
        return { kind: 'tree', root: p.glob ? p.pattern : p.path, rootIsGlob: p.glob, filter, range };
      return p.glob ? { kind: 'glob', pattern: p.pattern, range } : { kind: 'file', path: p.path, range };
    }),
  );
}

interface FindSearch {
  roots: Word[];
  filter: TreeFilter;
  /** The command run per file with `{}` replaced by a marker (`-exec cat {} ;`), or null. */
  exec: Word[] | null;
}

/** Stands for "each file found" in a command run by find -exec or xargs. */
const EACH_FILE = '\u0000each-file';
const eachFile: Word = {
  text: EACH_FILE,
  pattern: EACH_FILE,
  dynamic: false,
  quoted: false,
  substitutions: [],
};
const dot: Word = { text: '.', pattern: '.', dynamic: false, quoted: false, substitutions: [] };

function parseFind(argv: readonly Word[]): FindSearch {
  const words = argv.slice(1);
  let i = 0;
  while (i < words.length && /^-([HLP]|O\d)$/.test((words[i] as Word).text)) i++;
  const roots: Word[] = [];
  for (let w = words[i]; w !== undefined && !/^[-!(),]/.test(w.text); w = words[++i]) roots.push(w);
  const filter: TreeFilter = { ...NO_FILTER, include: [], exclude: [] };
  let exec: Word[] | null = null;
  let negated = false;
  for (; i < words.length; i++) {
    const t = (words[i] as Word).text;
    if (t === '!' || t === '-not') {
      negated = true;
      continue;
    }
    if (t === '-name' || t === '-iname') {
      const value = words[++i]?.text;
      if (value !== undefined) (negated ? filter.exclude : filter.include).push(value);
    } else if (t === '-maxdepth') filter.maxDepth = Number.parseInt(words[++i]?.text ?? '', 10);
    else if (/^-(exec|execdir|ok|okdir)$/.test(t)) {
      const end = words.findIndex(
        (w, k) => k > i && (w.text === ';' || (w.text === '+' && words[k - 1]?.text === '{}')),
      );
      const stop = end < 0 ? words.length : end;
      exec = words.slice(i + 1, stop).map((w) => (w.text === '{}' ? eachFile : w));
      i = stop;
    }
    negated = false;
  }
  if (Number.isNaN(filter.maxDepth)) filter.maxDepth = null;
  return { roots: roots.length > 0 ? roots : [dot], filter, exec };
}

/** `find ... | xargs grep -n X`: xargs runs the command on the files find printed. */
function xargsReads(cmd: SimpleCommand): ReadTarget[] {
  const from = cmd.pipedFrom;
  if (from === null || programName(from.argv[0]) !== 'find') return [];
  const words = cmd.argv.slice(1);
  let replace: string | null = null;
  let i = 0;
  for (let t = words[0]?.text; t?.startsWith('-') === true; t = words[++i]?.text) {
    if (t === '--') {
      i++;
      break;
    }
    if (t === '-a' || t.startsWith('--arg-file')) return [];
    if (t === '-I') replace = words[++i]?.text ?? null;
    else if (t === '-i' || t === '--replace') replace = '{}';
    else if (/^-[nLPsdE]$/.test(t)) i++;
  }
  const inner = words.slice(i);
  const command =
    replace === null ? [...inner, eachFile] : inner.map((w) => (w.text === replace ? eachFile : w));
  return searchReads(command, parseFind(from.argv), from.cwd);
}

/** When the per-file command reads its file, the search read every file it found. */
function searchReads(command: readonly Word[], find: FindSearch, cwd: string | null): ReadTarget[] {
  const perFile = readerReads(command, '/', []).find((t) => t.kind === 'file' && t.path === `/${EACH_FILE}`);
  if (perFile === undefined) return [];
  const range = perFile.range?.replace(EACH_FILE, '{}') ?? null;
  return find.roots.flatMap((root) =>
    operandPaths(root, cwd).map(
      (p): ReadTarget => ({
        kind: 'tree',
        root: p.glob ? p.pattern : p.path,
        rootIsGlob: p.glob,
        filter: find.filter,
        range,
      }),
    ),
  );
}
