/** Edits of a scripted run that the metamorphic operators share: where a call goes, how a shell says it. */
import type { ScriptedCall, ScriptedTurn } from '../../models/scripted.js';
import type { TrialRecord } from '../../results/trial.js';
import { workspaceAbsolute } from '../../scoring/paths.js';

/** A word the shell reads back as exactly `s`. */
export function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

/**
 * The call that makes `path` hold `content`: a write_file, or for a task judged by a verifier
 * alone (`byShell`) a shell command that replaces the file: what its reference agent wrote as
 * root (Harbor's solve.sh) the agent user cannot write in place, but may replace in its own folder.
 */
export function contentWrite(path: string, content: string, byShell = false): ScriptedCall {
  const target = workspaceAbsolute(path);
  if (!byShell) return { name: 'write_file', arguments: { path: target, content } };
  const quoted = shellQuote(target);
  return {
    name: 'execute_command',
    arguments: { command: `rm -f ${quoted} && ${heredocWrite(quoted, content)}` },
  };
}

/**
 * The script with `path` holding `content` from turn `turn` (1-based) on: the reference's own
 * write_file of it on that turn takes the content instead, else the write is added at the turn's
 * end. So a mutant stands where the reference's edit stood, before the runs that follow.
 */
export function withContentAt(
  script: readonly ScriptedTurn[],
  turn: number,
  path: string,
  content: string,
  byShell = false,
): ScriptedTurn[] {
  const out = script.map((t) => ({ ...t, calls: [...t.calls] }));
  const at = out[turn - 1];
  if (at === undefined) return out;
  const own = at.calls.findLastIndex((c) => c.name === 'write_file' && writtenPath(c) === path);
  const write = contentWrite(path, content, byShell);
  if (own >= 0) at.calls[own] = write;
  else at.calls.push(write);
  return out;
}

/**
 * Whether `call` (a write contentWrite made) landed: its last run in the trial succeeded. A
 * mutant that never landed proves nothing (DerivedRun.applied).
 */
export function landed(call: ScriptedCall): (trial: TrialRecord) => string | null {
  const same = (args: Record<string, unknown> | null): boolean =>
    args !== null && Object.entries(call.arguments).every(([k, v]) => k === 'content' || args[k] === v);
  return (trial) => {
    const run = trial.turn_logs
      .flatMap((t) => t.tool_calls)
      .findLast((c) => c.name === call.name && same(c.arguments));
    if (run === undefined) return 'its write never ran';
    if (run.exit_code === 0) return null;
    return `its write failed: ${(run.stderr || run.stdout).trim().slice(0, 200)}`;
  };
}

/** The script with `path` removed at the end of turn `turn` (a file the reference created, put back). */
export function withRemovalAt(script: readonly ScriptedTurn[], turn: number, path: string): ScriptedTurn[] {
  return withCallAt(script, turn, {
    name: 'execute_command',
    arguments: { command: `rm -f ${shellQuote(workspaceAbsolute(path))}` },
  });
}

/** The script with `call` added at the end of turn `turn`. */
export function withCallAt(
  script: readonly ScriptedTurn[],
  turn: number,
  call: ScriptedCall,
): ScriptedTurn[] {
  const out = script.map((t) => ({ ...t, calls: [...t.calls] }));
  out[turn - 1]?.calls.push(call);
  return out;
}

/** The workspace-relative path a write_file call names, when it names one plainly (relative or under /workspace). */
function writtenPath(call: ScriptedCall): string | null {
  const path = call.arguments.path;
  if (typeof path !== 'string') return null;
  if (path.startsWith('/workspace/')) return path.slice('/workspace/'.length);
  return path.startsWith('/') ? null : path.replace(/^\.\//, '');
}

/** Every call of the script replaced by what `f` makes of it (one call, or several in its place). */
export function mapCalls(
  script: readonly ScriptedTurn[],
  f: (call: ScriptedCall) => ScriptedCall | null,
): { script: ScriptedTurn[]; changed: number } {
  let changed = 0;
  const out = script.map((t) => ({
    ...t,
    calls: t.calls.map((c) => {
      const next = f(c);
      if (next === null) return c;
      changed++;
      return next;
    }),
  }));
  return { script: out, changed };
}

/** A heredoc delimiter that is no line of `content`. */
export function heredocDelimiter(content: string): string {
  let n = 0;
  while (content.includes(`AB_EOF_${n}`)) n++;
  return `AB_EOF_${n}`;
}

/**
 * A shell command that writes `content` to the file at `target` (already quoted) through a heredoc:
 * exact bytes, a last newline or none (the heredoc's own last newline is cut when the content has
 * none). `then` goes on the heredoc's first line (`&& mv ...`): after the body it would be a new command.
 */
export function heredocWrite(target: string, content: string, then = ''): string {
  const eof = heredocDelimiter(content);
  const ends = content.endsWith('\n') || content === '';
  const writer = ends ? 'cat' : 'head -c -1';
  const body = content === '' ? '' : ends ? content : `${content}\n`;
  return `${writer} > ${target} <<'${eof}'${then}\n${body}${eof}`;
}
