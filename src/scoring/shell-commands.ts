/**
 * A command line to the simple commands it runs, in order, each with the directory it runs in and
 * how far its exit status is the one the whole line reports. Environment assignments, keywords and
 * wrappers are stripped; `bash -c '...'`, subshells and substitutions are walked; `cd`/`pushd`
 * move the directory of the commands after them (not out of a subshell, a pipeline or `&`).
 */
import { resolvePath } from './paths.js';
import { type AndOr, type CommandNode, type Pipeline, parseTokens } from './shell-parse.js';
import { type Redirect, tokenize, type Word } from './shell-words.js';
import { isAssignment, programName, unwrap } from './shell-wrappers.js';

/**
 * What the line's reported exit status says about this command's own status:
 * - 'exact': it is this command's (`pytest`, `cd /workspace && pytest`, `bash -c 'pytest'`);
 * - 'if-zero': a 0 is this command's, a failure may be an earlier one's (`make && pytest`);
 * - 'if-nonzero': a failure is this command's, a 0 may mean it never ran (`true || pytest`);
 * - 'none': it says nothing (`pytest | tee`, `pytest; echo`, `pytest || true`, `if pytest`, `$(pytest)`).
 */
export type Finality = 'exact' | 'if-zero' | 'if-nonzero' | 'none';

export interface SimpleCommand {
  /** argv[0] is the program, after assignments, keywords and wrappers are stripped. */
  argv: Word[];
  redirects: Redirect[];
  /** Absolute directory it runs in; null after a `cd` to somewhere unknown. */
  cwd: string | null;
  finality: Finality;
  /** The command whose output this one reads through a pipe. */
  pipedFrom: SimpleCommand | null;
}

/**
 * Commands that cannot plausibly fail where they stand: `cd /workspace && pytest` reports pytest's
 * status exactly. (A cd to a missing directory would fail; models do not write that on purpose.)
 */
const NEUTRAL = new Set(['cd', 'pushd', 'export', 'set', 'unset', 'true', ':', 'shopt', 'umask']);
const OPENERS = new Set(['if', 'while', 'until', '{']);
const CLOSERS = new Set(['fi', 'done', 'esac', '}']);
const HEADERS = new Set(['for', 'select', 'case', 'function']);
const PREFIXES = new Set(['then', 'else', 'elif', 'do', '!']);

interface Scope {
  cwd: string | null;
}

/** Compound commands (if, while, { }) make the status of what is inside them unreliable. */
interface Walk {
  depth: number;
  out: SimpleCommand[];
}

export function parseCommandLine(source: string, cwd: string): SimpleCommand[] {
  const walk: Walk = { depth: 0, out: [] };
  walkList(parseTokens(tokenize(source)), { cwd }, 'exact', walk);
  return walk.out;
}

function parseInner(source: string, scope: Scope, finality: Finality, outer: Walk): void {
  const walk: Walk = { depth: 0, out: outer.out };
  walkList(parseTokens(tokenize(source)), { ...scope }, finality, walk);
}

function combine(a: Finality, b: Finality): Finality {
  if (a === 'exact') return b;
  if (b === 'exact' || a === b) return a;
  return 'none';
}

function walkList(list: readonly AndOr[], scope: Scope, finality: Finality, walk: Walk): void {
  list.forEach((andOr, i) => {
    const last = i === list.length - 1 && !andOr.background;
    walkAndOr(andOr, andOr.background ? { ...scope } : scope, last ? finality : 'none', walk);
  });
}

function walkAndOr(andOr: AndOr, scope: Scope, finality: Finality, walk: Walk): void {
  const n = andOr.pipelines.length;
  andOr.pipelines.forEach((pipeline, j) => {
    let own: Finality = 'none';
    if (j === n - 1) {
      const op = andOr.ops[j - 1];
      if (j === 0 || neutralPrefix(andOr, j)) own = 'exact';
      else own = op === '&&' ? 'if-zero' : 'if-nonzero';
    }
    walkPipeline(pipeline, scope, combine(finality, own), walk);
  });
}

function neutralPrefix(andOr: AndOr, j: number): boolean {
  if (andOr.ops.slice(0, j).some((op) => op !== '&&')) return false;
  return andOr.pipelines.slice(0, j).every((p) => {
    const only = p.commands[0];
    if (p.negated || p.commands.length !== 1 || only?.kind !== 'simple') return false;
    const program = only.words.find((w) => !isAssignment(w));
    return program === undefined || NEUTRAL.has(programName(program) ?? '');
  });
}

function walkPipeline(pipeline: Pipeline, scope: Scope, finality: Finality, walk: Walk): void {
  let previous: SimpleCommand | null = null;
  const n = pipeline.commands.length;
  pipeline.commands.forEach((node, k) => {
    const own = k === n - 1 && !pipeline.negated ? finality : 'none';
    // Every command of a real pipeline runs in a subshell: its cd goes nowhere.
    previous = walkCommand(node, n > 1 ? { ...scope } : scope, own, walk, previous);
  });
}

function walkCommand(
  node: CommandNode,
  scope: Scope,
  finality: Finality,
  walk: Walk,
  pipedFrom: SimpleCommand | null,
): SimpleCommand | null {
  if (node.kind === 'subshell') {
    walkList(node.body, { ...scope }, finality, walk);
    return null;
  }
  const targets = node.redirects.flatMap((r) => (r.target === null ? [] : [r.target]));
  for (const word of [...node.words, ...targets]) {
    for (const sub of word.substitutions) parseInner(sub, scope, 'none', walk);
  }
  const words = stripKeywords(node.words, walk);
  if (words === null) return null;
  while (words[0] !== undefined && isAssignment(words[0])) words.shift();
  if (words.length === 0) return null;
  const own = walk.depth > 0 ? 'none' : finality;
  const unwrapped = unwrap(words);
  if (unwrapped.kind === 'none') return null;
  if (unwrapped.kind === 'shell') {
    parseInner(unwrapped.source, scope, own, walk);
    return null;
  }
  const { argv, chdir } = unwrapped;
  let cwd = scope.cwd;
  if (chdir !== null) cwd = resolveDir(cwd, chdir);
  changeDirectory(argv, scope);
  const command: SimpleCommand = { argv, redirects: node.redirects, cwd, finality: own, pipedFrom };
  walk.out.push(command);
  return command;
}

/** Drops leading keywords, tracking compound depth; null for a loop or case header (not a command). */
function stripKeywords(words: readonly Word[], walk: Walk): Word[] | null {
  const rest = [...words];
  for (let w = rest[0]; w !== undefined && !w.quoted; w = rest[0]) {
    if (HEADERS.has(w.text)) {
      walk.depth++;
      return null;
    }
    if (OPENERS.has(w.text)) walk.depth++;
    else if (CLOSERS.has(w.text)) walk.depth = Math.max(0, walk.depth - 1);
    else if (!PREFIXES.has(w.text)) break;
    rest.shift();
  }
  return rest;
}

function changeDirectory(argv: readonly Word[], scope: Scope): void {
  const name = programName(argv[0]);
  if (name === 'popd') scope.cwd = null;
  if (name !== 'cd' && name !== 'pushd') return;
  const target = argv.slice(1).find((w) => w.dynamic || !/^-[LPe@]+$/.test(w.text));
  // No operand is $HOME, `-` is $OLDPWD: both unknown here.
  if (target === undefined || target.dynamic || target.text === '-') scope.cwd = null;
  else scope.cwd = resolveDir(scope.cwd, target.text);
}

function resolveDir(cwd: string | null, dir: string): string | null {
  if (dir.startsWith('/')) return resolvePath('/', dir);
  return cwd === null ? null : resolvePath(cwd, dir);
}
