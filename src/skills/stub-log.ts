/**
 * The stubs' record of their own runs: one JSON line per run (script, argv, cwd) appended to
 * /workspace/.stub_calls.log. The agent can write that file too, so it is never evidence on its own:
 * a line counts only when it pairs with a run of the same stub that the harness parsed from the
 * agent's execute_command calls, and then it shows the argv as the script really received it.
 */
import { posix } from 'node:path';
import { WORKSPACE_DIR } from '../sandbox/types.js';
import { expandBraces, hasGlob } from '../scoring/operands.js';
import type { Word } from '../scoring/shell-words.js';
import type { CheckContext } from '../tasks/types.js';
import type { Invocation } from './invocations.js';

/** Workspace-relative; ignored by the tamper diff (the stubs append to it on every run). */
export const STUB_LOG = '.stub_calls.log';

export interface StubCall {
  /** The stubbed script, relative to the skill folder. */
  script: string;
  argv: string[];
  /** The directory it ran in, relative to /workspace (`.` for /workspace itself). */
  cwd: string;
}

export function parseStubLog(text: string): StubCall[] {
  return text.split('\n').flatMap((line): StubCall[] => {
    try {
      const v: unknown = JSON.parse(line);
      if (typeof v !== 'object' || v === null) return [];
      const o = v as Record<string, unknown>;
      const argv = o.argv;
      if (typeof o.script !== 'string' || typeof o.cwd !== 'string' || !Array.isArray(argv)) return [];
      if (!argv.every((a): a is string => typeof a === 'string')) return [];
      return [{ script: o.script, argv, cwd: o.cwd }];
    } catch {
      return [];
    }
  });
}

/**
 * Pairs each parsed run of a stub (in order) with the first unused log line of the same script,
 * directory and arguments. Returns `call:step` keys of the runs a line confirms, with that line.
 */
export function pairStubRuns(
  runs: readonly Invocation[],
  stubOf: (inv: Invocation) => string | null,
  log: readonly StubCall[],
): Map<string, StubCall> {
  const used = new Set<number>();
  const paired = new Map<string, StubCall>();
  for (const inv of runs) {
    const script = stubOf(inv);
    if (script === null) continue;
    const args = inv.argv.slice(inv.program + 1);
    const i = log.findIndex(
      (line, n) =>
        !used.has(n) &&
        line.script === script &&
        (inv.cwd === null || line.cwd === (posix.relative(WORKSPACE_DIR, inv.cwd) || '.')) &&
        argsMatch(args, line.argv),
    );
    if (i < 0) continue;
    used.add(i);
    paired.set(runKey(inv), log[i] as StubCall);
  }
  return paired;
}

export function runKey(inv: Pick<Invocation, 'call' | 'step'>): string {
  return `${inv.call}:${inv.step}`;
}

/** Literal words must be equal; from the first word the shell expands, the rest is unknown. */
function argsMatch(words: readonly Word[], argv: readonly string[]): boolean {
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as Word;
    if (w.dynamic || hasGlob(w.pattern) || expandBraces(w.pattern).length > 1) return true;
    if (argv[i] !== w.text) return false;
  }
  return argv.length === words.length;
}

const memo = new WeakMap<object, Promise<StubCall[]>>();

/** The log as it was when the checks began (read once per trial, before any harness re-run). */
export function stubLog(ctx: Pick<CheckContext, 'calls' | 'groundTruth'>): Promise<StubCall[]> {
  let pending = memo.get(ctx.calls);
  if (pending === undefined) {
    pending = ctx.groundTruth.readFile(STUB_LOG).then((text) => (text === null ? [] : parseStubLog(text)));
    memo.set(ctx.calls, pending);
  }
  return pending;
}
