/**
 * The manifest's `[[flags]]` entries as flags: each entry's check compiled once, `requires` joined
 * in (the flag is reached only when the required flags' checks hold too, on the same trial), and
 * the problems only visible across entries (an unknown or circular reference) reported with their
 * place in the manifest.
 */

import type { CommandGroup } from '../../manifest/command-match.js';
import type { SkillFolder } from '../../manifest/folder.js';
import type { ScriptedTurn } from '../../models/scripted.js';
import { absence } from '../../scoring/score.js';
import type { Flag, FlagCodeRef } from '../../tasks/types.js';
import { artifactCheck } from './checks/artifact.js';
import { collateralCheck, referenceEdits } from './checks/collateral.js';
import { commandCheck, commandGroup, orderCheck } from './checks/commands.js';
import { harnessCheck, harnessTestsCheck } from './checks/harness.js';
import { mcpCallCheck } from './checks/mcp-call.js';
import { readCheck, readNeed } from './checks/read.js';
import { testRunCheck } from './checks/test-run.js';
import { codeCheck } from './flag-code.js';
import type { FlagEntry } from './flag-entry.js';
import { FILES_DIR } from './layout.js';

type Check = Flag['check'];

export interface BuiltFlags {
  flags: Flag[];
  problems: { at: string; message: string }[];
}

export function buildFlags(
  entries: readonly FlagEntry[],
  folder: SkillFolder,
  flagCode: FlagCodeRef | null,
  /** The reference solution, its files resolved: what no_collateral's regions come from. */
  reference: readonly ScriptedTurn[],
): BuiltFlags {
  const problems: BuiltFlags['problems'] = [];
  const index = new Map<string, number>();
  entries.forEach((e, i) => {
    if (index.has(e.id))
      problems.push({ at: `flags[${i}].id`, message: `another flag has the id "${e.id}"` });
    else index.set(e.id, i);
  });
  const groups = new Map<string, CommandGroup>();
  for (const e of entries) if (e.command !== undefined) groups.set(e.id, commandGroup(e.id, e.command));

  const own = entries.map((e, i): Check => {
    if (e.read !== undefined)
      return readCheck(e.read, readNeed(e.read, folder.read(`${FILES_DIR}/${e.read.file}`).toString('utf8')));
    if (e.test_run !== undefined) return testRunCheck(e.test_run);
    if (e.harness_tests !== undefined) return harnessTestsCheck(e.harness_tests);
    if (e.harness !== undefined) return harnessCheck(e.harness);
    if (e.artifact !== undefined) return artifactCheck(e.artifact, folder);
    if (e.mcp_call !== undefined) return mcpCallCheck(e.mcp_call);
    if (e.collateral !== undefined)
      return collateralCheck(e.collateral, referenceEdits(reference, e.collateral, folder));
    const group = groups.get(e.id);
    if (group !== undefined) return commandCheck(group);
    if (e.commands_in_order !== undefined) {
      const named = e.commands_in_order.flatMap((id, j) => {
        const g = groups.get(id);
        if (g === undefined)
          problems.push({ at: `flags[${i}].commands_in_order[${j}]`, message: `no command flag "${id}"` });
        return g === undefined ? [] : [g];
      });
      return orderCheck(named);
    }
    if (e.code !== undefined && flagCode !== null) return codeCheck(flagCode, e.code);
    problems.push({ at: `flags[${i}].code`, message: `needs the folder's flags.ts, which is missing` });
    return () => ({ reached: false, detail: 'no check' });
  });

  const flags = entries.map((e, i): Flag => {
    const flag: Flag = {
      id: e.id,
      kind: e.kind,
      description: e.description,
      ...(e.weight === undefined ? {} : { weight: e.weight }),
      check: withRequired(i, entries, index, own, problems),
    };
    return e.absence === true ? absence(flag) : flag;
  });
  return { flags, problems };
}

/**
 * The entry's own check, then each required flag's check (with what it requires in turn): the
 * first that misses decides, with its reason; the turn is the entry's own.
 */
function withRequired(
  i: number,
  entries: readonly FlagEntry[],
  index: ReadonlyMap<string, number>,
  own: readonly Check[],
  problems: BuiltFlags['problems'],
): Check {
  const required = new Map<number, { id: string; check: Check }>();
  const stack = new Set<number>([i]);
  const visit = (from: number): boolean => {
    for (const [j, id] of (entries[from]?.requires ?? []).entries()) {
      const at = index.get(id);
      const where = `flags[${from}].requires[${j}]`;
      if (at === undefined) {
        problems.push({ at: where, message: `no flag "${id}"` });
        return false;
      }
      if (stack.has(at)) {
        problems.push({ at: where, message: `"${id}" requires this flag in turn` });
        return false;
      }
      const check = own[at];
      if (check !== undefined) required.set(at, { id, check });
      stack.add(at);
      const ok = visit(at);
      stack.delete(at);
      if (!ok) return false;
    }
    return true;
  };
  const self = own[i] ?? (() => ({ reached: false }));
  if (!visit(i) || required.size === 0) return self;
  return async (ctx) => {
    const outcome = await self(ctx);
    if (!outcome.reached) return outcome;
    for (const r of required.values()) {
      const theirs = await r.check(ctx);
      if (!theirs.reached)
        return { reached: false, detail: `requires ${r.id}: ${theirs.detail ?? 'not reached'}` };
    }
    return outcome;
  };
}
