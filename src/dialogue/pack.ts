/**
 * A dialogue pack on disk (tasks/helpdesk/): policy.md (given to the agent, and what the checks
 * apply), base.json (the directory, knowledge base and catalogue every scenario starts from) and
 * scenarios/*.json, one scenario each. Everything is read and checked here, before any trial: a
 * broken file is a usage error naming the file, never a failed trial.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { z } from 'zod';
import { UsageError } from '../util/errors.js';
import { packageRoot } from '../util/package-root.js';
import { replayGold } from './gold.js';
import { DESK_TOOL_NAMES } from './helpdesk/desk.js';
import { BaseSeed, type DeskSeed, mergeSeed } from './helpdesk/seed.js';
import type { DeskState } from './helpdesk/state.js';
import { END_STATE_FLAG, ScenarioFile } from './scenario.js';
import { mentionsAny } from './user/phrases.js';

export interface Scenario {
  file: ScenarioFile;
  /** The base with the scenario's seed on top: what each trial starts from. */
  seed: DeskSeed;
  /** The end state the gold actions leave on a fresh desk: what every trial must end in. */
  expected: DeskState;
}

export interface DialoguePack {
  /** Absolute path of the pack's folder. */
  dir: string;
  name: string;
  organisation: string;
  policy: string;
  scenarios: Scenario[];
}

export const HELPDESK_DIR = join(packageRoot(), 'tasks', 'helpdesk');

export function loadPack(dir: string = HELPDESK_DIR): DialoguePack {
  const policy = readText(join(dir, 'policy.md'));
  const base = parseJson(join(dir, 'base.json'), BaseSeed);
  const folder = join(dir, 'scenarios');
  const names = readdirSync(folder)
    .filter((n) => n.endsWith('.json'))
    .sort();
  const scenarios = names.map((name) => {
    const path = join(folder, name);
    const file = parseJson(path, ScenarioFile);
    const seed = mergeSeed(base, file.seed);
    const problems = crossCheck({ file, seed });
    if (problems.length > 0) throw new UsageError(`${path}: ${problems.join('; ')}`);
    const gold = replayGold(seed, file.tools, file.gold_actions);
    if (!gold.ok) throw new UsageError(`${path}: scenario ${file.id}: ${gold.problem}`);
    return { file, seed, expected: gold.state };
  });
  const ids = scenarios.map((s) => s.file.id);
  const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (twice.length > 0) throw new UsageError(`${folder}: scenario ids used twice: ${twice.join(', ')}`);
  return { dir: resolve(dir), name: 'helpdesk', organisation: 'Northwind Labs', policy, scenarios };
}

/** What the schema cannot see: every id a scenario names must exist in its seed, flags and tools. */
function crossCheck({ file, seed }: Pick<Scenario, 'file' | 'seed'>): string[] {
  const problems: string[] = [];
  const employees = new Set(seed.employees.map((e) => e.id));
  const skus = new Set(seed.catalog.map((i) => i.sku));
  const articles = new Set(seed.kb.map((a) => a.id));
  const tools = file.tools ?? DESK_TOOL_NAMES;
  if (!employees.has(file.requester)) problems.push(`requester ${file.requester} is not in the directory`);
  for (const t of tools) if (!DESK_TOOL_NAMES.includes(t)) problems.push(`no helpdesk tool ${t}`);
  const flagIds = file.flags.map((f) => f.id);
  if (new Set(flagIds).size !== flagIds.length) problems.push('flag ids used twice');
  if (flagIds.includes(END_STATE_FLAG)) problems.push(`flag id ${END_STATE_FLAG} is every scenario's own`);
  for (const { id, check } of file.flags)
    if (check.kind === 'closed_after_confirmation') problems.push(...confirmationProblems(file, id, check));
  for (const { id, check } of file.flags) {
    if ('employee' in check && check.employee !== undefined && !employees.has(check.employee))
      problems.push(`flag ${id}: no employee ${check.employee}`);
    if ('approver' in check && !employees.has(check.approver))
      problems.push(`flag ${id}: no employee ${check.approver}`);
    if ('sku' in check && !skus.has(check.sku)) problems.push(`flag ${id}: no catalogue item ${check.sku}`);
    if ('article' in check && !articles.has(check.article))
      problems.push(`flag ${id}: no article ${check.article}`);
  }
  const caught = [
    ...file.lures.map((l) => ['lure', l] as const),
    ...file.cheats.map((c) => ['cheat', c] as const),
  ];
  for (const [what, run] of caught)
    for (const id of run.expect.unreached)
      if (!flagIds.includes(id) && id !== END_STATE_FLAG) problems.push(`${what} ${run.id}: no flag ${id}`);
  for (const fact of file.user.facts)
    if (fact.after !== undefined && !tools.includes(fact.after.call))
      problems.push(`fact ${fact.id}: no tool ${fact.after.call}`);
  return problems;
}

/**
 * A confirmation is recognised by its phrases: they must match the scripted user's confirming fact,
 * and no other line the user may say (else the check would pass on the opening or a pressure line).
 */
function confirmationProblems(
  file: ScenarioFile,
  flagId: string,
  check: { fact: string; said: string[] },
): string[] {
  const { user } = file;
  const fact = user.facts.find((f) => f.id === check.fact);
  if (fact === undefined) return [`flag ${flagId}: no user fact ${check.fact}`];
  if (!mentionsAny(fact.say, check.said))
    return [`flag ${flagId}: fact ${fact.id} says none of ${check.said.join(', ')}`];
  const others = [
    user.opening,
    user.thanks,
    user.give_up,
    user.fallback,
    ...user.pressure,
    ...user.facts.filter((f) => f !== fact).map((f) => f.say),
  ];
  const also = others.find((line) => mentionsAny(line, check.said));
  return also === undefined ? [] : [`flag ${flagId}: the user also says "${also}", which is no confirmation`];
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${path}`, { cause: err });
  }
}

function parseJson<T>(path: string, schema: z.ZodType<T>): T {
  let json: unknown;
  try {
    json = JSON.parse(readText(path));
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`${path} is not valid JSON: ${(err as Error).message}`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`);
    throw new UsageError(`${path}: ${issues.join('; ')}`);
  }
  return parsed.data;
}
