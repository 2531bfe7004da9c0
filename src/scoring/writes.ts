/**
 * Which paths a simple command may have written, so that events inside one turn can be ordered
 * against a file's change. Conservative: anything not known to be harmless may write anywhere.
 */

import { operandPaths } from './operands.js';
import { isWithin } from './paths.js';
import { pytestArguments } from './pytest.js';
import { parseReaderArgs, READERS } from './reader-specs.js';
import type { SimpleCommand } from './shell-commands.js';
import type { Word } from './shell-words.js';
import { programName } from './shell-wrappers.js';

/** Absolute paths (each covering everything below it), or 'any' when it cannot be told. */
export type WriteSet = 'any' | readonly string[];

const READ_ONLY = new Set(
  (
    'cat tac nl head tail less more bat batcat grep egrep fgrep rg ls tree pwd cd pushd popd echo printf wc ' +
    'diff cmp file stat which type true false test [ sleep date whoami id basename dirname realpath readlink du df ' +
    'ps uname export set unset : cut tr column jq xxd od hexdump md5sum sha1sum sha256sum env printenv history ' +
    'alias shopt umask hash nproc free seq expr'
  ).split(' '),
);
const FILE_WRITERS = new Set(
  'cp mv ln install rm rmdir touch truncate mkdir chmod chown chgrp tee unlink shred'.split(' '),
);
const NOT_SHOWN = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty', '/dev/fd/1', '/dev/fd/2']);

export function mayWrite(writes: WriteSet, absPath: string): boolean {
  return writes === 'any' || writes.some((w) => isWithin(absPath, w));
}

export function writesOf(cmd: SimpleCommand): WriteSet {
  const paths: string[] = [];
  for (const r of cmd.redirects) {
    const toFile =
      ['>', '>>', '>|', '&>', '&>>', '<>'].includes(r.op) ||
      (r.op === '>&' && !/^(\d+|-)$/.test(r.target?.text ?? ''));
    if (!toFile || r.target === null || NOT_SHOWN.has(r.target.text)) continue;
    const named = literalPaths([r.target], cmd.cwd);
    if (named === 'any') return 'any';
    paths.push(...named);
  }
  const own = programWrites(cmd);
  return own === 'any' ? 'any' : [...paths, ...own];
}

function programWrites(cmd: SimpleCommand): WriteSet {
  const name = programName(cmd.argv[0]);
  const args = cmd.argv.slice(1);
  const texts = args.map((w) => w.text);
  if (name === null) return 'any';
  if (READ_ONLY.has(name) || pytestArguments(cmd.argv) !== null) return [];
  if (name === 'sed' && READERS.sed !== undefined) {
    const parsed = parseReaderArgs(READERS.sed, args);
    if (!parsed.silent) return [];
    return literalPaths(parsed.scriptGiven ? parsed.operands : parsed.operands.slice(1), cmd.cwd);
  }
  if (name === 'awk' || name === 'gawk' || name === 'mawk')
    return texts.some((t) => /[>|]|system/.test(t)) ? 'any' : [];
  if (name === 'sort') return texts.some((t) => t.startsWith('-o') || t.startsWith('--output')) ? 'any' : [];
  if (name === 'find')
    return texts.some((t) => /^-(delete|exec|execdir|ok|okdir|fprint|fprint0|fprintf|fls)$/.test(t))
      ? 'any'
      : [];
  if (name === 'dd')
    return literalPaths(args.filter((w) => w.text.startsWith('of=')).map(afterEquals), cmd.cwd);
  if (FILE_WRITERS.has(name))
    return literalPaths(
      args.filter((w) => !w.text.startsWith('-')),
      cmd.cwd,
    );
  return 'any';
}

function afterEquals(w: Word): Word {
  const cut = (s: string): string => s.slice(s.indexOf('=') + 1);
  return { ...w, text: cut(w.text), pattern: cut(w.pattern) };
}

/** Literal operand paths; 'any' when one is an expansion, a glob, or relative to an unknown directory. */
function literalPaths(words: readonly Word[], cwd: string | null): WriteSet {
  const out: string[] = [];
  for (const w of words) {
    const paths = operandPaths(w, cwd);
    if (paths.length === 0 || paths.some((p) => p.glob)) return 'any';
    for (const p of paths) if (!p.glob) out.push(p.path);
  }
  return out;
}
