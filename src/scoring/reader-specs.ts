/**
 * The programs that show a file's content, and how each one's arguments split into options,
 * a script or pattern, and file operands: `head -n 20 x` reads x, not 20; `grep -e a -f p x` reads x.
 */
import type { Word } from './shell-words.js';

interface OptionChars {
  short: string;
  long: readonly string[];
}

export interface ReaderSpec {
  /** Options taking a value: short ones (next word, or attached) and long ones (next word, or `=`). */
  value: OptionChars;
  /** The first operand is a script or pattern unless one of these options supplied it. */
  script?: OptionChars;
  /** Options after which nothing of the files is shown (grep -q, sed -i). */
  silent?: OptionChars;
  recursive?: OptionChars | 'always';
  /** `-20` is an option (head, tail, grep context). */
  numeric?: boolean;
  /** `+N` is an option (less, more). */
  plus?: boolean;
  /** Shows the whole file whatever the options, so two such reads are the same read. */
  wholeFile: boolean;
  /** `NAME=value` operands are assignments, not files (awk). */
  assignments?: boolean;
}

const none: OptionChars = { short: '', long: [] };
const cat: ReaderSpec = { value: none, wholeFile: true };
const headTail: ReaderSpec = {
  value: { short: 'ncs', long: ['lines', 'bytes', 'sleep-interval', 'pid', 'max-unchanged-stats'] },
  numeric: true,
  wholeFile: false,
};
const pager: ReaderSpec = { value: { short: 'bhjkopPtTxyz', long: [] }, plus: true, wholeFile: true };
const bat: ReaderSpec = {
  value: {
    short: 'lHmr',
    long: ['language', 'highlight-line', 'line-range', 'map-syntax', 'style', 'theme', 'tabs'],
  },
  wholeFile: true,
};
const grep: ReaderSpec = {
  value: {
    short: 'eABCfmdD',
    long: [
      'regexp',
      'file',
      'after-context',
      'before-context',
      'context',
      'max-count',
      'include',
      'exclude',
    ].concat([
      'exclude-dir',
      'exclude-from',
      'label',
      'binary-files',
      'devices',
      'directories',
      'group-separator',
    ]),
  },
  script: { short: 'ef', long: ['regexp', 'file'] },
  silent: { short: 'q', long: ['quiet', 'silent'] },
  recursive: { short: 'rR', long: ['recursive', 'dereference-recursive'] },
  numeric: true,
  wholeFile: false,
};
const rg: ReaderSpec = {
  value: {
    short: 'eABCfgmtTjMEd',
    long: ['regexp', 'file', 'glob', 'type', 'type-not', 'max-count', 'max-depth'],
  },
  script: { short: 'ef', long: ['regexp', 'file'] },
  silent: { short: 'q', long: ['quiet'] },
  recursive: 'always',
  wholeFile: false,
};
const sed: ReaderSpec = {
  value: { short: 'efl', long: ['expression', 'file', 'line-length'] },
  script: { short: 'ef', long: ['expression', 'file'] },
  silent: { short: 'i', long: ['in-place'] },
  wholeFile: false,
};
const awk: ReaderSpec = {
  value: { short: 'Ffv', long: ['field-separator', 'file', 'assign'] },
  script: { short: 'f', long: ['file'] },
  assignments: true,
  wholeFile: false,
};

export const READERS: Readonly<Record<string, ReaderSpec>> = {
  cat,
  tac: cat,
  nl: { value: { short: 'bdfhilnsvw', long: [] }, wholeFile: true },
  head: headTail,
  tail: headTail,
  less: pager,
  more: pager,
  bat,
  batcat: bat,
  grep,
  egrep: grep,
  fgrep: grep,
  rg,
  sed,
  awk,
  gawk: awk,
  mawk: awk,
};

export interface ParsedArgs {
  operands: Word[];
  /** Option words as written, for the read's range. */
  options: string[];
  silent: boolean;
  recursive: boolean;
  scriptGiven: boolean;
  /** Values of grep --include / --exclude / --exclude-dir and rg -g. */
  include: string[];
  exclude: string[];
  excludeDir: string[];
}

export function parseReaderArgs(spec: ReaderSpec, words: readonly Word[]): ParsedArgs {
  const r: ParsedArgs = {
    operands: [],
    options: [],
    silent: false,
    recursive: spec.recursive === 'always',
    scriptGiven: false,
    include: [],
    exclude: [],
    excludeDir: [],
  };
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as Word;
    const t = w.text;
    if (t === '--') {
      r.operands.push(...words.slice(i + 1));
      break;
    }
    const isOption = t.length > 1 && (t.startsWith('-') || (spec.plus === true && t.startsWith('+')));
    if (!isOption) r.operands.push(w);
    else if (t.startsWith('--')) i = longOption(spec, r, words, i);
    else if (!(spec.numeric === true && /^-\d+$/.test(t)) && !t.startsWith('+'))
      i = shortCluster(spec, r, words, i);
    else r.options.push(t);
  }
  return r;
}

function longOption(spec: ReaderSpec, r: ParsedArgs, words: readonly Word[], i: number): number {
  const t = (words[i] as Word).text;
  const eq = t.indexOf('=');
  const name = t.slice(2, eq < 0 ? undefined : eq);
  let value: string | undefined;
  let next = i;
  if (eq >= 0) value = t.slice(eq + 1);
  else if (spec.value.long.includes(name)) value = words[++next]?.text;
  r.options.push(value === undefined || eq >= 0 ? t : `${t} ${value}`);
  if (spec.silent?.long.includes(name) === true) r.silent = true;
  if (spec.script?.long.includes(name) === true) r.scriptGiven = true;
  if (spec.recursive !== undefined && spec.recursive !== 'always' && spec.recursive.long.includes(name))
    r.recursive = true;
  if (value !== undefined) filterValue(r, name, value);
  return next;
}

function shortCluster(spec: ReaderSpec, r: ParsedArgs, words: readonly Word[], i: number): number {
  const t = (words[i] as Word).text;
  let next = i;
  let written = t;
  for (let j = 1; j < t.length; j++) {
    const c = t[j] as string;
    if (spec.silent?.short.includes(c) === true) {
      r.silent = true;
      break;
    }
    if (spec.recursive !== undefined && spec.recursive !== 'always' && spec.recursive.short.includes(c))
      r.recursive = true;
    if (!spec.value.short.includes(c)) continue;
    if (spec.script?.short.includes(c) === true) r.scriptGiven = true;
    let value = t.slice(j + 1);
    if (value === '') {
      value = words[++next]?.text ?? '';
      written = `${t} ${value}`;
    }
    if (c === 'g') filterValue(r, 'glob', value);
    break;
  }
  r.options.push(written);
  return next;
}

function filterValue(r: ParsedArgs, name: string, value: string): void {
  if (name === 'include') r.include.push(value);
  else if (name === 'exclude') r.exclude.push(value);
  else if (name === 'exclude-dir') r.excludeDir.push(value);
  else if (name === 'glob') (value.startsWith('!') ? r.exclude : r.include).push(value.replace(/^!/, ''));
}
