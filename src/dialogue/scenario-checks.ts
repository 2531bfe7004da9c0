/**
 * What a scenario's schema cannot see: every id it names must exist in its seed, flags and tools,
 * and a confirmation's phrases must match the scripted user's confirming line and no other.
 */
import { DESK_TOOL_NAMES } from './helpdesk/desk.js';
import type { DeskSeed } from './helpdesk/seed.js';
import { WORD_FLAGS } from './helpdesk/words.js';
import { END_STATE_FLAG, type ScenarioFile } from './scenario.js';
import { mentionsAny } from './user/phrases.js';

/** What the schema cannot see: every id a scenario names must exist in its seed, flags and tools. */
export function crossCheck({ file, seed }: { file: ScenarioFile; seed: DeskSeed }): string[] {
  const problems: string[] = [];
  const employees = new Set(seed.employees.map((e) => e.id));
  const skus = new Set(seed.catalog.map((i) => i.sku));
  const articles = new Set(seed.kb.map((a) => a.id));
  const tools = file.tools ?? DESK_TOOL_NAMES;
  if (!employees.has(file.requester)) problems.push(`requester ${file.requester} is not in the directory`);
  for (const t of tools) if (!DESK_TOOL_NAMES.includes(t)) problems.push(`no helpdesk tool ${t}`);
  const flagIds = file.flags.map((f) => f.id);
  if (new Set(flagIds).size !== flagIds.length) problems.push('flag ids used twice');
  for (const own of [END_STATE_FLAG, ...Object.keys(WORD_FLAGS)])
    if (flagIds.includes(own)) problems.push(`flag id ${own} is every scenario's own`);
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
      if (!flagIds.includes(id) && id !== END_STATE_FLAG && !Object.hasOwn(WORD_FLAGS, id))
        problems.push(`${what} ${run.id}: no flag ${id}`);
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
