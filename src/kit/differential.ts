/**
 * Differential ground truth: the agent's final module against the task's reference implementation,
 * on inputs drawn by fast-check from a seed fixed by the task and its instance, so every trial of
 * one instance asks the same inputs and each variant instance others. Hidden tests try the inputs
 * their author thought of; this tries a few hundred more, the edge classes included (the author
 * lists the boundaries; fast-check's draws lean to empty, tiny and extreme values), so an
 * implementation wrong only outside the hidden tests' inputs is caught, and the verdict names the
 * input.
 *
 * Inputs are drawn on the host and both modules run in the sandbox, as the checker, one process
 * each (src/kit/differential-run.ts): the reference from a folder of the task's hidden files that
 * mirrors the workspace (its sibling modules beside it), the agent's from the staged workspace.
 * Draw only inputs whose behaviour the task's instruction fixes: a correct implementation written
 * another way must never disagree.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import {
  type AgreementRules,
  agrees,
  type CaseOutcome,
  renderCall,
  renderOutcome,
} from '../scoring/differential-compare.js';
import { toWire } from '../scoring/differential-wire.js';
import { type CheckContext, type FlagOutcome, HIDDEN_DIR } from '../tasks/types.js';
import { InternalError } from '../util/errors.js';
import {
  type DifferentialCall,
  differentialScript,
  killed,
  languageOf,
  readDifferentialRun,
  SIDE_TIMEOUT_SEC,
  type SideRun,
} from './differential-run.js';

/** fast-check, for the arbitraries a differential check draws its inputs from. */
export { fc };

/** One function compared, and the argument lists it is called with. */
interface DifferentialFunction {
  /** Its module, workspace-relative (`stats.mjs`, `durations.py`); `.mjs`/`.js` run in node, `.py` in python3. */
  module: string;
  name: string;
  /** The argument lists drawn: an arbitrary of tuples (`fc.tuple(fc.string())`). */
  args: fc.Arbitrary<readonly unknown[]>;
  /** How many lists to draw (default 100); repeats are tried once. */
  count?: number;
  /** Argument lists always tried, before the drawn ones: the boundaries of every limit. */
  edges?: readonly (readonly unknown[])[];
}

export interface DifferentialCheck {
  /** Mixed with the instance's values into each function's seed: the task's id. */
  seed: string;
  /** The reference's folder, relative to HIDDEN_DIR: its copy of every module compared, at the same paths. */
  reference: string;
  functions: readonly DifferentialFunction[];
  /** `thrown` (default): errors agree with errors; `type`: also of the reference's class, when the instruction names it. */
  errors?: AgreementRules['errors'];
  /** Numbers not both integers agree within `absolute + relative × magnitude` (default: relative 1e-9). */
  tolerance?: Partial<AgreementRules['tolerance']>;
  /**
   * Where the agent's modules are imported from (default: the staged workspace), and a shell
   * command that puts them there first: a TypeScript module compiled by the task's own build.
   */
  agentRoot?: { root: string; prepare: string };
}

const DEFAULT_COUNT = 100;

/** The calls a check makes for an instance: its edges, then its draws, each list once, in a fixed order. */
function differentialCalls(
  check: DifferentialCheck,
  instance: Readonly<Record<string, unknown>>,
): DifferentialCall[] {
  return check.functions.flatMap((f) => {
    const seed = seedOf([check.seed, canonical(instance), f.module, f.name]);
    const drawn = fc.sample(f.args, { seed, numRuns: f.count ?? DEFAULT_COUNT });
    const seen = new Set<string>();
    return [...(f.edges ?? []), ...drawn].flatMap((args) => {
      const wire = args.map(toWire);
      const key = JSON.stringify(wire);
      if (seen.has(key)) return [];
      seen.add(key);
      return [{ module: f.module, fn: f.name, args: wire }];
    });
  });
}

/**
 * Reached when the agent's module agrees with the reference on every call; the miss names the
 * shortest call they disagree on, what each did, and how many of the calls disagree.
 */
export async function differential(
  ctx: Pick<CheckContext, 'groundTruth' | 'instance'>,
  check: DifferentialCheck,
): Promise<FlagOutcome> {
  const language = languageOfCheck(check);
  const calls = differentialCalls(check, ctx.instance);
  const run = await ctx.groundTruth.run(
    differentialScript(language, `${HIDDEN_DIR}/${check.reference}`, calls, check.agentRoot),
  );
  const { reference, agent } = readDifferentialRun(run.stdout);
  const problem = referenceProblem(reference, calls.length);
  if (problem !== null || reference === null)
    return { reached: false, detail: `the reference run ${problem ?? 'did not start'}` };
  if (agent === null) return { reached: false, detail: "the run of the agent's module did not start" };
  const rules: AgreementRules = {
    errors: check.errors ?? 'thrown',
    tolerance: { absolute: 0, relative: 1e-9, ...check.tolerance },
  };
  const disagreements = calls.flatMap((call, i) => {
    const ref = reference.outcomes.get(i) as CaseOutcome;
    const got = agent.outcomes.get(i);
    if (got !== undefined && agrees(got, ref, rules)) return [];
    const shown = renderCall(call.fn, call.args, language);
    const did = got === undefined ? unfinished(agent) : renderOutcome(got, language);
    return [{ shown, text: `${shown} ${did}; the reference ${renderOutcome(ref, language)}` }];
  });
  if (disagreements.length === 0)
    return { reached: true, turn: null, detail: `agrees with the reference on ${calls.length} inputs` };
  const shortest = disagreements.reduce((a, b) => (b.shown.length < a.shown.length ? b : a));
  return {
    reached: false,
    detail: `${shortest.text} (${disagreements.length} of ${calls.length} inputs disagree with the reference)`,
  };
}

/** Why a call of the agent's has no outcome: its run ended before it, or was killed on it. */
function unfinished(agent: SideRun): string {
  return killed(agent) ? `did not return within ${SIDE_TIMEOUT_SEC}s` : 'ended the run (its process exited)';
}

/** What is wrong with the reference's side, which must answer every call (null: nothing). */
function referenceProblem(reference: SideRun | null, count: number): string | null {
  if (reference === null) return 'did not start';
  if (!reference.ended) return `did not finish (exit ${reference.status ?? 'unknown'})`;
  for (let i = 0; i < count; i++) {
    const o = reference.outcomes.get(i);
    if (o === undefined) return `reported nothing for call ${i}`;
    if (o.kind === 'unavailable') return `could not make call ${i}: ${o.why}`;
  }
  return null;
}

function languageOfCheck(check: DifferentialCheck): 'node' | 'python' {
  const languages = new Set(check.functions.map((f) => languageOf(f.module)));
  const [language] = languages;
  if (languages.size !== 1 || language === undefined || language === null)
    throw new InternalError(
      `differential check ${check.seed}: its modules must be all .mjs/.js or all .py (${check.functions.map((f) => f.module).join(', ')})`,
    );
  return language;
}

/** A 32-bit seed from its parts. */
function seedOf(parts: readonly string[]): number {
  return createHash('sha256').update(JSON.stringify(parts)).digest().readInt32LE(0);
}

/** JSON with every object's keys sorted: one instance, one text. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}
