/**
 * `command` and `commands_in_order`: a skill manifest's required_commands and ordered_commands,
 * each a flag of its own with the skill flags' checks (src/skills/command-flags.ts), judged from
 * the process trace alone: a program of the image, or a script the agent cannot change, really ran
 * with these arguments (and this exit code of its own).
 */

import { commandFlag, orderFlag } from '../../../manifest/command-flags.js';
import type { CommandGroup } from '../../../manifest/command-match.js';
import { toRegExp } from '../../../manifest/regex.js';
import type { Flag } from '../../../tasks/types.js';
import type { FlagEntry } from '../flag-entry.js';

type CommandSpec = NonNullable<FlagEntry['command']>;

export function commandGroup(id: string, spec: CommandSpec): CommandGroup {
  return {
    id,
    patterns: (spec.any_of ?? (spec.pattern === undefined ? [] : [spec.pattern])).map(toRegExp),
    exitCode: spec.exit_code ?? null,
    recheck: false,
    description: null,
  };
}

export function commandCheck(group: CommandGroup): Flag['check'] {
  return commandFlag(group).check;
}

export function orderCheck(groups: readonly CommandGroup[]): Flag['check'] {
  return orderFlag(groups).check;
}
