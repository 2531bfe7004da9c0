/**
 * Programs that run another program: `sudo`, `env X=1`, `timeout 60`, `nice`, `nohup`, `stdbuf`,
 * `time`, `command`, `exec`, and shells given `-c STRING` (whose string is parsed as a command line).
 */
import type { Word } from './shell-words.js';

export type Unwrapped =
  /** The program that really runs, with `env -C DIR` if one was given. */
  | { kind: 'program'; argv: Word[]; chdir: string | null }
  /** `bash -c STRING`: the string is a command line of its own. */
  | { kind: 'shell'; source: string }
  /** Nothing runs (`command -v x`, a wrapper with no program). */
  | { kind: 'none' };

/** A word's program name (basename), or null when the word is an expansion. */
export function programName(word: Word | undefined): string | null {
  if (word === undefined || word.dynamic) return null;
  const slash = word.text.lastIndexOf('/');
  return slash < 0 ? word.text : word.text.slice(slash + 1);
}

interface OptionSpec {
  /** Short options that take a value. */
  value: string;
  /** Long options that take a value when not written `--name=value`. */
  longValue?: readonly string[];
}

const WRAPPERS: Record<string, OptionSpec & { positional?: number }> = {
  sudo: {
    value: 'ugCDhprtUT',
    longValue: ['user', 'group', 'chdir', 'prompt', 'role', 'type', 'other-user'],
  },
  doas: { value: 'uC' },
  timeout: { value: 'sk', longValue: ['signal', 'kill-after'], positional: 1 },
  nice: { value: 'n', longValue: ['adjustment'] },
  ionice: { value: 'cnpP', longValue: ['class', 'classdata'] },
  stdbuf: { value: 'ioe', longValue: ['input', 'output', 'error'] },
  nohup: { value: '' },
  time: { value: 'fo', longValue: ['format', 'output'] },
  exec: { value: 'a' },
  builtin: { value: '' },
  unbuffer: { value: '' },
};

const SHELLS = new Set(['bash', 'sh', 'dash', 'zsh', 'ksh']);

export function unwrap(argv: readonly Word[]): Unwrapped {
  let words = [...argv];
  let chdir: string | null = null;
  for (;;) {
    const name = programName(words[0]);
    if (name === null) return { kind: 'program', argv: words, chdir };
    if (name === 'command') {
      if (words.slice(1).some((w) => w.text === '-v' || w.text === '-V')) return { kind: 'none' };
      words = skipOptions(words.slice(1), { value: '' });
    } else if (name === 'env') {
      const env = unwrapEnv(words.slice(1));
      words = env.rest;
      chdir = env.chdir ?? chdir;
    } else if (SHELLS.has(name)) {
      return shellCommand(words) ?? { kind: 'program', argv: words, chdir };
    } else {
      const spec = WRAPPERS[name];
      if (spec === undefined) return { kind: 'program', argv: words, chdir };
      words = skipOptions(words.slice(1), spec).slice(spec.positional ?? 0);
    }
    if (words.length === 0) return { kind: 'none' };
  }
}

/** The words after the leading options (and `--`). */
function skipOptions(words: Word[], spec: OptionSpec): Word[] {
  let i = 0;
  while (i < words.length) {
    const t = (words[i] as Word).text;
    if (t === '--') return words.slice(i + 1);
    if (!t.startsWith('-') || t === '-') break;
    if (t.startsWith('--')) {
      i += !t.includes('=') && (spec.longValue ?? []).includes(t.slice(2)) ? 2 : 1;
      continue;
    }
    const valueAt = [...t.slice(1)].findIndex((c) => spec.value.includes(c));
    // `-u root` takes the next word; `-uroot` carries its value.
    i += valueAt >= 0 && valueAt === t.length - 2 ? 2 : 1;
  }
  return words.slice(i);
}

function unwrapEnv(words: Word[]): { rest: Word[]; chdir: string | null } {
  let chdir: string | null = null;
  let i = 0;
  for (; i < words.length; i++) {
    const w = words[i] as Word;
    const t = w.text;
    if (t === '--') {
      i++;
      break;
    }
    if (t === '-C' || t === '--chdir') chdir = words[++i]?.text ?? null;
    else if (t.startsWith('--chdir=')) chdir = t.slice('--chdir='.length);
    else if (t.startsWith('-C') && t.length > 2) chdir = t.slice(2);
    else if (t === '-u' || t === '--unset' || t === '-S' || t === '--split-string') i++;
    else if (!t.startsWith('-') || t === '-') break;
  }
  const rest = words.slice(i);
  while (rest[0] !== undefined && isAssignment(rest[0])) rest.shift();
  return { rest, chdir };
}

/** `NAME=value` before a program: an environment assignment, not the program. */
function isAssignment(word: Word): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(word.text);
}

/** `bash -lc 'cmd'`, `sh -e -c "cmd"`: the command string, or null when not given literally. */
function shellCommand(words: Word[]): { kind: 'shell'; source: string } | { kind: 'none' } | null {
  let commandFlag = false;
  let i = 1;
  for (; i < words.length; i++) {
    const t = (words[i] as Word).text;
    if (t === '--') {
      i++;
      break;
    }
    if (!/^[-+]./.test(t)) break;
    if (t.startsWith('--')) {
      if (t === '--rcfile' || t === '--init-file') i++;
      continue;
    }
    if (t.includes('c')) commandFlag = true;
    if (t.includes('o') || t.includes('O')) i++;
  }
  if (!commandFlag) return null;
  const source = words[i];
  if (source === undefined) return { kind: 'none' };
  return source.dynamic ? null : { kind: 'shell', source: source.text };
}
