/**
 * Which program each traced process ran, never judged by the command's wording: the file it
 * executed, or, for an interpreter (sh, bash, python3, node, ...), the script it was given, resolved
 * against the process's own directory. A script counts as the interpreter's program only when the
 * interpreter opened it and was not told to check it without running it (`sh -n`, `bash -n`,
 * `node --check`, `perl -c`); inline code (`python3 -c`, `node -e`) or a module (`python3 -m
 * py_compile x.py`) make the interpreter itself the program. A module is the file it was loaded from
 * when that lies under /workspace or /tmp, else the interpreter. An interpreter reading its program
 * from standard input (`bash < x.sh`, `sh -s`, `cat x.sh | bash`, `python3 - < x.py`) runs the file
 * the trace shows that input gave it whole (ProgramLog.stdin_file), else itself. Every program of an
 * exec chain counts (a script ending in `exec python3 worker.py` ran, and so did the worker). An
 * interpreter counts only when it is the image's own: a program anywhere else (/workspace, /tmp,
 * /dev/shm) is one the agent could have written. A call without a trace ran nothing that can be told.
 *
 * `bash /dev/stdin < x.sh` runs x.sh too (the name reopens the same file from its start). Not
 * counted: `source x.sh` and `. x.sh`, which the trace cannot tell from other reads of the file by
 * the shell, and `bash <(cat x.sh)`, a pipe on another descriptor (src/sandbox/trace/stdin.ts).
 */
import { posix } from 'node:path';
import type { ProcessLog, ProgramLog } from '../results/trial.js';
import type { CheckContext } from '../tasks/types.js';
import type { StepRef } from './ordering.js';

export interface ProgramRun {
  turn: number;
  /** step: the process's place among its call's processes (their start order). */
  at: StepRef;
  /**
   * The process as it was for this program: its exe, argv, cwd and stdin_file are this program's
   * (an earlier one of an exec chain, or its last); exit and files are the whole process's.
   */
  process: ProcessLog;
  /**
   * The arguments it received; for a program read from standard input, the arguments of the same
   * run with the file named (`bash -s a < x.sh` is `bash x.sh a`), so it reads like any script run.
   */
  argv: readonly string[];
  /** What ran, absolute: the script an interpreter ran, else the file executed; null when unknown. */
  program: string | null;
  /** Index in argv of the word naming it: the script, the module of `python3 -m`, or 0. */
  word: number;
  /** The script an interpreter only checked or was handed without running it, else null. */
  notRun: { script: string; why: 'syntax check' | 'not opened' } | null;
}

/** Directories of the image (read-only in the sandbox): what lies there, the agent did not write. */
const IMAGE_DIRS = ['/usr/', '/bin/', '/sbin/', '/lib/', '/opt/'];

export function isImageProgram(path: string): boolean {
  return IMAGE_DIRS.some((d) => path.startsWith(d));
}

const memo = new WeakMap<object, ProgramRun[]>();

/** Every program the trial's traced processes ran, in order (computed once per trial). */
export function programRuns(ctx: Pick<CheckContext, 'calls'>): ProgramRun[] {
  let out = memo.get(ctx.calls);
  if (out !== undefined) return out;
  out = [];
  for (const [call, log] of ctx.calls.entries()) {
    if (log.name !== 'execute_command' || log.invalid !== null || log.processes === undefined) continue;
    for (const [step, p] of log.processes.entries()) {
      for (const [index, program] of programsOf(p).entries()) {
        if (program.argv === null || program.argv.length === 0 || (index === 0 && isCallShell(p))) continue;
        const view: ProcessLog = { ...p, ...withoutStdin(p), ...program };
        out.push({ turn: log.turn, at: { call, step }, process: view, ...programOf(view, program.argv) });
      }
    }
  }
  memo.set(ctx.calls, out);
  return out;
}

/** Every program the process ran, in order: its earlier runs (an exec chain), then its last. */
export function programsOf(p: ProcessLog): ProgramLog[] {
  const last: ProgramLog = { exe: p.exe, argv: p.argv, cwd: p.cwd };
  if (p.stdin_file !== undefined) last.stdin_file = p.stdin_file;
  return [...(p.earlier_runs ?? []), last];
}

function withoutStdin(p: ProcessLog): ProcessLog {
  const { stdin_file: _, ...rest } = p;
  return rest;
}

/**
 * The exit code the process itself returned; null when it was killed or still running. For an
 * earlier program of an exec chain it is what the chain ended in: a script that execs its worker
 * returns the worker's code.
 */
export function ownExitCode(run: Pick<ProgramRun, 'process'>): number | null {
  return run.process.signal === null ? run.process.exit_code : null;
}

/** The call's own shell (the first record, first `bash -c` running the harness's script) is not the agent's. */
function isCallShell(p: ProcessLog): boolean {
  const first = programsOf(p)[0];
  return p.parent_pid === null && first?.argv?.[1] === '-c' && /(^|\/)bash$/.test(first.exe ?? '');
}

function programOf(p: ProcessLog, argv: string[]): Pick<ProgramRun, 'argv' | 'program' | 'word' | 'notRun'> {
  const itself = { argv, program: p.exe, word: 0, notRun: null };
  const spec = p.exe !== null && isImageProgram(p.exe) ? interpreter(posix.basename(p.exe)) : undefined;
  if (spec === undefined) return itself;
  const arg = spec(argv);
  if (arg.kind === 'itself') return itself;
  if (arg.kind === 'stdin') return stdinProgram(p, argv, arg, itself);
  if (arg.kind === 'module')
    return { argv, program: moduleFile(p, arg.name) ?? p.exe, word: arg.index, notRun: null };
  const text = argv[arg.index] as string;
  const script = text.startsWith('/')
    ? posix.normalize(text)
    : p.cwd === null
      ? null
      : posix.resolve(p.cwd, text);
  if (script === null) return { argv, program: null, word: arg.index, notRun: null };
  // `bash /dev/stdin < x.sh`: opening its standard input by name reopens the file from its start,
  // so the program is that file, when the trace shows it gave it whole (stdin.ts).
  if (STDIN_NAMES.has(script)) {
    if (p.stdin_file === undefined) return itself;
    const file = p.stdin_file;
    if (arg.kind === 'checked') return { ...itself, notRun: { script: file, why: 'syntax check' } };
    return {
      argv: argv.map((a, i) => (i === arg.index ? file : a)),
      program: file,
      word: arg.index,
      notRun: null,
    };
  }
  if (arg.kind === 'checked') return { ...itself, notRun: { script, why: 'syntax check' } };
  // An interpreter opens the script it runs: one it never opened, it did not run (a misparsed option).
  if (!p.reads.includes(script)) return { ...itself, notRun: { script, why: 'not opened' } };
  return { argv, program: script, word: arg.index, notRun: null };
}

/** Paths that name a process's own standard input. */
const STDIN_NAMES = new Set(['/dev/stdin', '/dev/fd/0', '/proc/self/fd/0']);

/** A program read from standard input: the file the trace says that input gave it whole, if any. */
function stdinProgram(
  p: ProcessLog,
  argv: string[],
  arg: Extract<ScriptArg, { kind: 'stdin' }>,
  itself: Pick<ProgramRun, 'argv' | 'program' | 'word' | 'notRun'>,
): Pick<ProgramRun, 'argv' | 'program' | 'word' | 'notRun'> {
  const script = p.stdin_file;
  if (script === undefined) return itself;
  if (arg.check) return { ...itself, notRun: { script, why: 'syntax check' } };
  const named = [argv[0] as string, ...arg.options, script, ...arg.operands];
  return { argv: named, program: script, word: 1 + arg.options.length, notRun: null };
}

/**
 * The file a `python3 -m` module was loaded from, when the trace shows it opened under /workspace or
 * /tmp (a module the agent may have written, or one of the skill's); null for the image's own.
 */
function moduleFile(p: ProcessLog, name: string): string | null {
  const tail = name.replaceAll('.', '/');
  return p.reads.find((r) => r.endsWith(`/${tail}.py`) || r.endsWith(`/${tail}/__main__.py`)) ?? null;
}

/** Where in argv an interpreter's program is. */
type ScriptArg =
  | { kind: 'itself' }
  | { kind: 'module'; index: number; name: string }
  | { kind: 'script' | 'checked'; index: number }
  /** The program comes from standard input; options (without the one saying so) and operands around it. */
  | { kind: 'stdin'; options: string[]; operands: string[]; check: boolean };

type Interpreter = (argv: readonly string[]) => ScriptArg;

function interpreter(name: string): Interpreter | undefined {
  if (/^python[0-9.]*$/.test(name)) return python;
  if (['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash'].includes(name)) return shell;
  if (name === 'node' || name === 'nodejs') return node;
  const simple = SIMPLE[name];
  return simple === undefined ? undefined : simpleInterpreter(simple);
}

const ITSELF: ScriptArg = { kind: 'itself' };

/**
 * sh-family: short options cluster (`-ex`); `-c` runs code, `-n` or `-o noexec` only parse; `-s`, or
 * no script operand, reads the program from standard input (operands are then its arguments).
 */
function shell(argv: readonly string[]): ScriptArg {
  let check = false;
  let fromStdin = false;
  const options: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const t = argv[i] as string;
    if (t === '--' || t === '-') {
      const rest = argv.slice(i + 1);
      if (!fromStdin && rest.length > 0) return scriptAt(argv, i + 1, check);
      return { kind: 'stdin', options, operands: rest, check };
    }
    if (t.startsWith('--')) {
      if (t === '--help' || t === '--version') return ITSELF;
      options.push(t);
      if (t === '--rcfile' || t === '--init-file') options.push(argv[++i] ?? '');
      continue;
    }
    if (!/^[-+]/.test(t)) {
      if (fromStdin) return { kind: 'stdin', options, operands: argv.slice(i), check };
      return scriptAt(argv, i, check);
    }
    const letters = t.slice(1);
    if (letters.includes('c')) return ITSELF;
    if (t.startsWith('-') && letters.includes('n')) check = true;
    if (t.startsWith('-') && letters.includes('s')) {
      fromStdin = true;
      if (letters !== 's') options.push(t.replaceAll('s', ''));
    } else options.push(t);
    for (const option of letters.replace(/[^oO]/g, '')) {
      const value = argv[++i] ?? '';
      options.push(value);
      if (option === 'o' && t.startsWith('-') && value === 'noexec') check = true;
    }
  }
  return { kind: 'stdin', options, operands: [], check };
}

/** python: `-c` code, `-m` a module, `-` or no script stdin; `-W`/`-X` take a value, glued or not. */
function python(argv: readonly string[]): ScriptArg {
  for (let i = 1; i < argv.length; i++) {
    const t = argv[i] as string;
    if (t === '-')
      return { kind: 'stdin', options: argv.slice(1, i), operands: argv.slice(i + 1), check: false };
    if (t === '--') return scriptAt(argv, i + 1, false);
    if (t.startsWith('--')) {
      if (t === '--check-hash-based-pycs') i++;
      else return ITSELF; // --help, --version
      continue;
    }
    if (!t.startsWith('-')) return scriptAt(argv, i, false);
    for (let j = 1; j < t.length; j++) {
      const c = t[j] as string;
      if (c === 'c' || c === 'h' || c === 'V' || c === '?') return ITSELF;
      if (c === 'm')
        return j + 1 < t.length ? { kind: 'module', index: i, name: t.slice(j + 1) } : moduleAt(argv, i + 1);
      if (c === 'W' || c === 'X') {
        if (j + 1 === t.length) i++;
        break;
      }
    }
  }
  return { kind: 'stdin', options: argv.slice(1), operands: [], check: false };
}

const NODE_CODE = new Set(['-e', '--eval', '-p', '--print', '-pe', '-h', '--help', '-v', '--version']);
const NODE_CHECK = new Set(['-c', '--check']);
const NODE_VALUE = new Set([
  '-r',
  '--require',
  '--import',
  '--loader',
  '--experimental-loader',
  '-C',
  '--conditions',
  '--input-type',
  '--env-file',
]);

/**
 * node: options come before the script; `--require=x` carries its value, `--require x` does not;
 * `-` or no script reads the program from standard input, except under `--test` (which finds tests).
 */
function node(argv: readonly string[]): ScriptArg {
  let check = false;
  for (let i = 1; i < argv.length; i++) {
    const t = argv[i] as string;
    if (t === '-') return { kind: 'stdin', options: argv.slice(1, i), operands: argv.slice(i + 1), check };
    if (t === '--') return scriptAt(argv, i + 1, check);
    if (!t.startsWith('-')) return scriptAt(argv, i, check);
    if (NODE_CODE.has(t) || t === '--test') return ITSELF;
    if (NODE_CHECK.has(t)) check = true;
    else if (NODE_VALUE.has(t)) i++;
  }
  return { kind: 'stdin', options: argv.slice(1), operands: [], check };
}

interface SimpleSpec {
  code: readonly string[];
  check: readonly string[];
  value: readonly string[];
}

const SIMPLE: Record<string, SimpleSpec> = {
  perl: { code: ['-e', '-E'], check: ['-c'], value: [] },
  ruby: { code: ['-e'], check: ['-c'], value: ['-r', '-I'] },
  php: { code: ['-r'], check: ['-l'], value: ['-c', '-d'] },
  Rscript: { code: ['-e'], check: [], value: [] },
};

function simpleInterpreter(spec: SimpleSpec): Interpreter {
  return (argv) => {
    let check = false;
    for (let i = 1; i < argv.length; i++) {
      const t = argv[i] as string;
      if (t === '-') return ITSELF;
      if (t === '--') return scriptAt(argv, i + 1, check);
      if (!t.startsWith('-')) return scriptAt(argv, i, check);
      if (spec.code.includes(t)) return ITSELF;
      if (spec.check.includes(t)) check = true;
      else if (spec.value.includes(t)) i++;
    }
    return ITSELF;
  };
}

function scriptAt(argv: readonly string[], index: number, check: boolean): ScriptArg {
  if (index >= argv.length) return ITSELF;
  return { kind: check ? 'checked' : 'script', index };
}

function moduleAt(argv: readonly string[], index: number): ScriptArg {
  const name = argv[index];
  return name === undefined ? ITSELF : { kind: 'module', index, name };
}
