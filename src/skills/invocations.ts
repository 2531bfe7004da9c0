/**
 * The programs an agent's shell commands ran, from the harness's parse of each execute_command
 * (never the raw text): one entry per simple command, with the word that names what runs — the
 * program itself, or the script an interpreter runs (`python3 skill/x.py`, `sh x.sh`, `python3 -m
 * mod`). `echo skill/x.sh` runs echo; the script is only its argument.
 */

import { pytestExitCode } from '../scoring/commands.js';
import { resolvePath } from '../scoring/paths.js';
import { parseCommandLine } from '../scoring/shell-commands.js';
import type { Word } from '../scoring/shell-words.js';
import { programName } from '../scoring/shell-wrappers.js';
import type { CheckContext } from '../tasks/types.js';

export interface Invocation {
  turn: number;
  /** Position in the trial: call index, then simple-command index. */
  call: number;
  step: number;
  argv: readonly Word[];
  /** Index in argv of the word naming what runs. */
  program: number;
  /** That word resolved to an absolute path, or null (an expansion, or a cd to somewhere unknown). */
  programPath: string | null;
  cwd: string | null;
  /** The command's own exit code when the call's status is known to be its own, else null. */
  exitCode: number | null;
}

interface Interpreter {
  /** Options after which the program is inline code, not a script: the interpreter is what runs. */
  code: readonly string[];
  /** Options that take the next word as their value. */
  value: readonly string[];
  /** The option naming a module to run (`python3 -m pytest`). */
  module?: string;
}

const SHELL: Interpreter = { code: ['-c'], value: ['-o', '-O', '--rcfile', '--init-file'] };
const INTERPRETERS: Record<string, Interpreter> = {
  sh: SHELL,
  bash: SHELL,
  dash: SHELL,
  zsh: SHELL,
  ksh: SHELL,
  python: { code: ['-c'], value: ['-W', '-X', '--check-hash-based-pycs'], module: '-m' },
  node: { code: ['-e', '-p', '--eval', '--print'], value: ['-r', '--require', '--import', '--loader'] },
  perl: { code: ['-e', '-E'], value: [] },
  ruby: { code: ['-e'], value: ['-r', '-I'] },
  php: { code: ['-r'], value: ['-c', '-d'] },
  Rscript: { code: ['-e'], value: [] },
};

function interpreter(name: string | null): Interpreter | undefined {
  if (name === null) return undefined;
  if (/^python[0-9.]*$/.test(name)) return INTERPRETERS.python;
  const key = name === 'nodejs' ? 'node' : name;
  return Object.hasOwn(INTERPRETERS, key) ? INTERPRETERS[key] : undefined;
}

const memo = new WeakMap<object, Invocation[]>();

/** Every simple command of every call that ran (not refused), in order; computed once per trial. */
export function invocations(ctx: Pick<CheckContext, 'calls'>): Invocation[] {
  let out = memo.get(ctx.calls);
  if (out !== undefined) return out;
  out = [];
  ctx.calls.forEach((call, index) => {
    const command = call.arguments?.command;
    if (call.name !== 'execute_command' || call.invalid !== null || typeof command !== 'string') return;
    if (call.exit_code === null && !call.timed_out) return;
    parseCommandLine(command, call.cwd).forEach((cmd, step) => {
      const program = programIndex(cmd.argv);
      const word = cmd.argv[program];
      (out as Invocation[]).push({
        turn: call.turn,
        call: index,
        step,
        argv: cmd.argv,
        program,
        programPath: word === undefined ? null : wordPath(word, cmd.cwd),
        cwd: cmd.cwd,
        exitCode: pytestExitCode(call.exit_code, call.timed_out, cmd.finality),
      });
    });
  });
  memo.set(ctx.calls, out);
  return out;
}

/** argv[0], or the script (or `-m` module) an interpreter runs. */
function programIndex(argv: readonly Word[]): number {
  const spec = interpreter(programName(argv[0]));
  if (spec === undefined) return 0;
  for (let i = 1; i < argv.length; i++) {
    const t = (argv[i] as Word).text;
    const next = i + 1 < argv.length ? i + 1 : 0;
    if (t === '--') return next;
    if (t === spec.module) return next;
    if (spec.code.includes(t) || t === '-') return 0;
    if (!t.startsWith('-')) return i;
    if (spec.value.includes(t)) i++;
  }
  return 0;
}

function wordPath(word: Word, cwd: string | null): string | null {
  if (word.dynamic) return null;
  if (word.text.startsWith('/')) return resolvePath('/', word.text);
  // A bare name is looked up on PATH, not in the directory.
  if (!word.text.includes('/') || cwd === null) return null;
  return resolvePath(cwd, word.text);
}

/** The words as one line, and where the words up to the program end in it. */
export function invocationText(inv: Pick<Invocation, 'argv' | 'program'>): {
  text: string;
  programEnd: number;
} {
  const words = inv.argv.map((w) => w.text);
  const programEnd = words.slice(0, inv.program + 1).join(' ').length;
  return { text: words.join(' '), programEnd };
}
