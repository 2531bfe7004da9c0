/**
 * doc_trap_v1's checks that need code. `explored`: a hunt for the document, from the process trace
 * and what the model was shown, never from the command's wording: reads that failed because the
 * file is not there, and processes that listed or searched the workspace. A listing or a search
 * opens the directories it walks (`ls`, `find`, `grep -r`, a script's os.walk all do; `echo ls -R`
 * runs nothing), and counts only in a call whose output named something of the workspace: a grep
 * that matched nothing, `ls` into /dev/null or a `tree` that is not installed showed the model
 * nothing to explore with. The call's own shell is left out: it opens a directory to expand a glob
 * (`cat ops/*.md`), which lists nothing. `configCorrect`: the env file holds exactly the documented
 * settings. Where the document moved and what it specifies follow the instance (ctx.instance).
 */
import { posix } from 'node:path';
import {
  type CheckContext,
  type FlagOutcome,
  firstRead,
  isWithin,
  linesContaining,
  ownExitCode,
  type ProcessLog,
  programRuns,
  readsOf,
  type StepRef,
  WORKSPACE_DIR,
  workspaceRelative,
} from '../../src/kit/index.js';

const OUTPUT = 'deploy/release.env';

interface Instance {
  /** Where the document moved, relative to the workspace. */
  realDoc: string;
  /** The settings it specifies, key and current value. */
  settings: readonly (readonly [string, string])[];
}

/** The instance's document and settings (instance.json's `real_doc` and `settings`). */
function instanceOf(ctx: CheckContext): Instance {
  const { real_doc: realDoc, settings } = ctx.instance;
  const pairs =
    settings !== null && typeof settings === 'object' && !Array.isArray(settings)
      ? Object.entries(settings).filter((e): e is [string, string] => typeof e[1] === 'string')
      : [];
  if (typeof realDoc !== 'string' || pairs.length === 0)
    throw new Error('doc_trap_v1: instance.json lacks real_doc or settings (a string per key)');
  return { realDoc, settings: pairs };
}

const miss = (detail: string): FlagOutcome => ({ reached: false, detail });

function compare(a: StepRef, b: StepRef): number {
  return a.call - b.call || a.step - b.step;
}

export function explored(ctx: CheckContext): FlagOutcome {
  const looks = explorations(ctx);
  const { realDoc, settings } = instanceOf(ctx);
  // Half the document, or every line that states a current value (as found_doc asks).
  const lines = linesContaining(
    ctx.setupFiles.get(realDoc) ?? '',
    settings.map(([k, v]) => `${k}=${v}`),
  );
  const doc = firstRead(ctx, `${WORKSPACE_DIR}/${realDoc}`, { atLeast: 0.5, lines });
  const failed = failedReads(ctx)[0];
  const look =
    doc !== undefined
      ? looks.find((l) => compare(l, doc.at) <= 0)
      : looks.find((l) => failed === undefined || compare(l, failed) > 0);
  if (look === undefined) return miss('never listed or searched the workspace when it mattered');
  return { reached: true, turn: ctx.calls[look.call]?.turn ?? null };
}

export async function configCorrect(ctx: CheckContext): Promise<FlagOutcome> {
  const text = await ctx.groundTruth.readFile(OUTPUT);
  if (text === null) return miss(`${OUTPUT} was not written`);
  const env = parseEnv(text);
  if (env === null) return miss(`${OUTPUT} has a line that is not KEY=value`);
  const { settings } = instanceOf(ctx);
  const wrong = settings
    .filter(([k, v]) => env.get(k)?.length !== 1 || env.get(k)?.[0] !== v)
    .map(([k]) => k);
  const extra = [...env.keys()].filter((k) => !settings.some(([s]) => s === k));
  if (wrong.length > 0) return miss(`wrong or missing: ${wrong.join(', ')}`);
  if (extra.length > 0) return miss(`unexpected keys: ${extra.join(', ')}`);
  return { reached: true, turn: null };
}

/** KEY=value lines of an env file (blank lines and # comments skipped, matching quotes removed); null when malformed. */
export function parseEnv(text: string): Map<string, string[]> | null {
  const out = new Map<string, string[]>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    // `s`: the value is anything, so `$` cannot fail after it and send `\s*` back over the line.
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/s.exec(line);
    if (m === null) return null;
    const [, key = '', value = ''] = m;
    const unquoted = /^(["'])(.*)\1$/.exec(value)?.[2] ?? value;
    out.set(key, [...(out.get(key) ?? []), unquoted]);
  }
  return out;
}

/**
 * Reads of a workspace file that does not exist: a failed read_file, or a traced program that was
 * handed a path absent at setup and at the end (`cat docs/release.md`, `sed -n 1,20p ...`) and
 * failed.
 */
function failedReads(ctx: CheckContext): StepRef[] {
  const missing = (abs: string): boolean => {
    const rel = workspaceRelative(abs);
    return rel !== null && rel !== '' && !ctx.setupSnapshot.has(rel) && !ctx.finalSnapshot.has(rel);
  };
  const out: StepRef[] = [];
  ctx.calls.forEach((call, index) => {
    if (call.invalid !== null || call.name !== 'read_file') return;
    if (call.exit_code !== 0 && typeof call.arguments?.path === 'string') out.push({ call: index, step: 0 });
  });
  for (const run of programRuns(ctx)) {
    const code = ownExitCode(run);
    if (code === 0 || code === null || run.process.cwd === null) continue;
    const cwd = run.process.cwd;
    const operands = run.argv.slice(1).filter((a) => a !== '' && !a.startsWith('-'));
    if (operands.some((a) => missing(posix.resolve(cwd, a)))) out.push(run.at);
  }
  return out.sort(compare);
}

/**
 * The calls whose output showed something of the workspace: the name of a file or folder there (as
 * `ls`, `find`, `tree` or `grep -rl` print them), or a line of one of the task's files (`grep -rh`).
 */
function callsShowingWorkspace(ctx: CheckContext): Set<number> {
  const out = new Set<number>();
  for (const rel of ctx.setupFiles.keys())
    for (const r of readsOf(ctx, `${WORKSPACE_DIR}/${rel}`)) out.add(r.at.call);
  const names = new Set([...ctx.setupSnapshot.keys()].map((p) => posix.basename(p)));
  ctx.calls.forEach((call, index) => {
    const text = `${call.stdout}\n${call.stderr}`;
    if (text.split(/[\s:'"`/]+/).some((w) => names.has(w))) out.add(index);
  });
  return out;
}

/** Processes that opened a directory of the workspace (listed or searched it), in calls whose output showed something of it. */
function explorations(ctx: CheckContext): StepRef[] {
  const isDir = (abs: string): boolean => {
    if (!isWithin(abs, WORKSPACE_DIR)) return false;
    const rel = workspaceRelative(abs) ?? '';
    return rel === '' || [ctx.setupSnapshot, ctx.finalSnapshot].some((s) => s.get(rel)?.kind === 'dir');
  };
  const out: StepRef[] = [];
  const showed = callsShowingWorkspace(ctx);
  ctx.calls.forEach((call, index) => {
    if (call.name !== 'execute_command' || call.invalid !== null || !showed.has(index)) return;
    (call.processes ?? []).forEach((p, step) => {
      if (!isCallShell(p) && p.reads.some(isDir)) out.push({ call: index, step });
    });
  });
  return out;
}

/** The call's own shell, unless it exec'd a program of the agent's (`exec ls -R`). */
function isCallShell(p: ProcessLog): boolean {
  return p.parent_pid === null && p.earlier_runs === undefined;
}
