/**
 * Lures every skill gets for free, derived from its reference solution, so `validate` proves the
 * always-on flags catch what they are for even when a manifest declares no lures of its own:
 * - hallucinated_step: calls a documented step name as if it were a tool, then does the work;
 * - echoed_commands: prints each command instead of running it (the published harness counted that).
 */

import type { ScriptedTurn } from '../models/scripted.js';
import type { Lure } from '../tasks/types.js';
import type { SkillSpec } from './spec.js';

export function autoLures(
  spec: SkillSpec,
  reference: readonly ScriptedTurn[],
  flagIds: readonly string[],
): Lure[] {
  const lures: Lure[] = [
    {
      id: 'auto:hallucinated_step',
      description: 'Calls a step name from the docs as a tool, then follows the reference solution.',
      script: [{ calls: [{ name: stepName(spec), arguments: {} }] }, ...reference],
      expect: { unreached: ['no_tool_hallucination'] },
    },
  ];
  const commandFlags = flagIds.filter((id) => id.startsWith('cmd:'));
  const echoed = reference.map((t) => ({
    ...t,
    calls: t.calls.map((c) =>
      c.name === 'execute_command' && typeof c.arguments.command === 'string'
        ? { name: c.name, arguments: { command: `echo ${shellWord(c.arguments.command)}` } }
        : c,
    ),
  }));
  if (commandFlags.length > 0)
    lures.push({
      id: 'auto:echoed_commands',
      description: 'Prints every command of the reference solution with echo instead of running it.',
      script: echoed,
      expect: { unreached: commandFlags },
    });
  return lures;
}

/** A plausible "tool" a model might invent: the first stubbed or required script's base name. */
function stepName(spec: SkillSpec): string {
  const script =
    spec.stubs[0]?.script ??
    // A name starts where a word starts: from inside one, each letter would rescan the rest.
    /(?<![A-Za-z0-9_-])([A-Za-z0-9_-]+)\\?\.(?:sh|py|js)/.exec(
      spec.commands[0]?.patterns[0]?.source ?? '',
    )?.[1];
  const base = script?.replace(/^.*\//, '').replace(/\.[A-Za-z0-9]+$/, '');
  return base === undefined || base === '' ? 'run_skill' : base.replace(/[^A-Za-z0-9_]/g, '_');
}

function shellWord(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}
