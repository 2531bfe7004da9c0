/**
 * One differential run in the sandbox: a bash script that writes a runner and the cases to the
 * checker's home, runs the reference's side (in its hidden folder) and then the agent's (on the
 * staged workspace), each in a process of its own and bounded in time, and the reading of what they
 * printed. The script is one ground-truth command: the cases travel inside it, gzipped and in
 * base64url, whose alphabet has no `/`, so no input can spell the workspace path that ground truth
 * rewrites to the staged copy's.
 */
import { gzipSync } from 'node:zlib';
import { shellQuote } from '../manifest/shell-quote.js';
import { CHECKER_HOME, WORKSPACE_DIR } from '../sandbox/types.js';
import type { CaseOutcome, Language } from '../scoring/differential-compare.js';
import type { Wire } from '../scoring/differential-wire.js';
import { InternalError } from '../util/errors.js';
import { NODE_RUNNER, PYTHON_RUNNER } from './differential-runners.js';

/** One call of one function of one module (workspace-relative, or relative to the reference's folder). */
export interface DifferentialCall {
  module: string;
  fn: string;
  args: readonly Wire[];
}

/** Bounds each side's process: a few hundred calls take well under a second, so a run this long hangs. */
export const SIDE_TIMEOUT_SEC = 30;
/** What a side killed at SIDE_TIMEOUT_SEC exits with (timeout -s KILL). */
const KILLED = 137;
/** The script's bound: one argument of `bash -c`, well under the kernel's 128 KiB for one. */
const MAX_SCRIPT_BYTES = 64 * 1024;
/** Where the runner and the cases are written (the checker's own tmpfs). */
const RUN_DIR = `${CHECKER_HOME}/differential`;
const RUNNER_END = 'AGENT_BENCH_DIFFERENTIAL_RUNNER';

/** The language a module is run in, by its extension; null when no runner runs it. */
export function languageOf(module: string): Language | null {
  if (/\.(mjs|js)$/.test(module)) return 'node';
  if (module.endsWith('.py')) return 'python';
  return null;
}

export function differentialScript(
  language: Language,
  referenceRoot: string,
  calls: readonly DifferentialCall[],
  agent: { root: string; prepare: string } = { root: WORKSPACE_DIR, prepare: '' },
): string {
  const packed = gzipSync(JSON.stringify(calls.map((c) => ({ m: c.module, f: c.fn, a: c.args })))).toString(
    'base64url',
  );
  const [file, source, runner] =
    language === 'node' ? ['runner.mjs', NODE_RUNNER, 'node'] : ['runner.py', PYTHON_RUNNER, 'python3 -I -B'];
  const ref = shellQuote(referenceRoot);
  const run = (root: string) =>
    `timeout -s KILL ${SIDE_TIMEOUT_SEC} ${runner} "$d/${file}" ${root} "$d/cases"`;
  const script = [
    'set -u',
    `d=${shellQuote(RUN_DIR)}`,
    'rm -rf "$d" && mkdir -p "$d" || exit 3',
    `cat > "$d/${file}" <<'${RUNNER_END}'`,
    source.trimEnd(),
    RUNNER_END,
    `printf '%s\\n' '${packed}' > "$d/cases"`,
    `(cd ${ref} && exec ${run(ref)}) </dev/null; echo "status reference $?"`,
    ...(agent.prepare === '' ? [] : [agent.prepare]),
    `${run(shellQuote(agent.root))} </dev/null; echo "status agent $?"`,
    'rm -rf "$d"',
  ].join('\n');
  if (Buffer.byteLength(script) > MAX_SCRIPT_BYTES)
    throw new InternalError(
      `differential run: ${calls.length} calls make a ${Buffer.byteLength(script)}-byte script, over ${MAX_SCRIPT_BYTES}: draw fewer or smaller inputs`,
    );
  return script;
}

/** Whether a ground-truth command is a differential run (a test's fake ground truth runs these for real). */
export const isDifferentialScript = (command: string): boolean => command.includes(`<<'${RUNNER_END}'`);

/** What one side printed: the outcomes by call index, whether it printed its end, how its process exited. */
export interface SideRun {
  outcomes: ReadonlyMap<number, CaseOutcome>;
  ended: boolean;
  /** Its process's exit status (null: never reported). */
  status: number | null;
}

export const killed = (side: SideRun): boolean => side.status === KILLED;

/**
 * The two sides of a run's output. The reference's is the first runner to announce itself; the
 * agent's is the first to announce itself after the reference's end, which its runner does before
 * it imports anything of the agent's. Null: that side never started (or, the reference's, never ended).
 */
export function readDifferentialRun(stdout: string): { reference: SideRun | null; agent: SideRun | null } {
  const lines = stdout.split('\n');
  const reference = sideFrom(lines, 0, 'reference');
  if (reference === null || !reference.side.ended) return { reference: reference?.side ?? null, agent: null };
  const agent = sideFrom(lines, reference.next, 'agent');
  return { reference: reference.side, agent: agent?.side ?? null };
}

function sideFrom(
  lines: readonly string[],
  from: number,
  which: 'reference' | 'agent',
): { side: SideRun; next: number } | null {
  const start = lines.findIndex((l, i) => i >= from && /^differential [0-9a-f]{24}$/.test(l));
  if (start < 0) return null;
  const nonce = (lines[start] ?? '').slice('differential '.length);
  const outcomes = new Map<number, CaseOutcome>();
  let end = -1;
  for (let i = start + 1; i < lines.length && end < 0; i++) {
    const line = lines[i] ?? '';
    if (line === `${nonce} end`) end = i;
    const m = /^([0-9a-f]{24}) (\d+) (.*)$/.exec(line);
    if (m === null || m[1] !== nonce) continue;
    const outcome = outcomeOf(m[3] ?? '');
    if (outcome !== null && !outcomes.has(Number(m[2]))) outcomes.set(Number(m[2]), outcome);
  }
  // bash's own line: the reference's is the first (its process prints nothing like it), the agent's
  // the last (its process may print anything before it).
  const statuses = lines.filter((l) => l.startsWith(`status ${which} `));
  const reported = which === 'reference' ? statuses[0] : statuses.at(-1);
  const status = reported === undefined ? null : Number(reported.split(' ')[2]);
  return {
    side: { outcomes, ended: end >= 0, status: Number.isInteger(status) ? status : null },
    next: end < 0 ? lines.length : end + 1,
  };
}

function outcomeOf(json: string): CaseOutcome | null {
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch {
    return null;
  }
  if (v === null || typeof v !== 'object') return null;
  const o = v as Record<string, unknown>;
  const after = 'a' in o ? { argsAfter: o.a as Wire } : {};
  if ('r' in o) return { kind: 'returned', value: o.r as Wire, ...after };
  if (typeof o.m === 'string') return { kind: 'unavailable', why: o.m };
  const e = o.e as { types?: unknown; message?: unknown } | undefined;
  if (e !== undefined && Array.isArray(e.types))
    return {
      kind: 'threw',
      types: e.types.filter((t): t is string => typeof t === 'string'),
      message: typeof e.message === 'string' ? e.message : '',
      ...after,
    };
  return null;
}
