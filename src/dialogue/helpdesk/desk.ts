/**
 * The helpdesk environment of one trial: fresh state from the scenario's seed, the tools the
 * scenario offers, each call run against the state in order.
 */
import { InternalError } from '../../util/errors.js';
import type { DialogueEnvironment, EnvCall } from '../environment.js';
import type { DeskTool } from './desk-tool.js';
import { DIRECTORY_TOOLS } from './directory-tools.js';
import { IDENTITY_TOOLS } from './identity-tools.js';
import { PURCHASE_TOOLS } from './purchase-tools.js';
import type { DeskSeed } from './seed.js';
import { type DeskState, initialState } from './state.js';
import { TICKET_TOOLS } from './ticket-tools.js';

/** Every helpdesk tool, in the order their specs are sent. */
const DESK_TOOLS: readonly DeskTool[] = [
  ...DIRECTORY_TOOLS,
  ...TICKET_TOOLS,
  ...IDENTITY_TOOLS,
  ...PURCHASE_TOOLS,
];
export const DESK_TOOL_NAMES: readonly string[] = DESK_TOOLS.map((t) => t.spec.name);

export interface Desk extends DialogueEnvironment {
  /** The state as it is now: the checks' ground truth. Not to be changed by the caller. */
  readonly state: DeskState;
}

/** `toolNames`: the tools the scenario offers (all of them when absent), in the desk's order. */
export function openDesk(seed: DeskSeed, toolNames?: readonly string[]): Desk {
  const offered =
    toolNames === undefined ? DESK_TOOLS : DESK_TOOLS.filter((t) => toolNames.includes(t.spec.name));
  const unknown = (toolNames ?? []).filter((n) => !DESK_TOOL_NAMES.includes(n));
  if (unknown.length > 0) throw new InternalError(`no helpdesk tool ${unknown.join(', ')}`);
  const state = initialState(seed);
  return {
    state,
    tools: offered.map((t) => t.spec),
    call(name, args): EnvCall {
      const tool = offered.find((t) => t.spec.name === name);
      if (tool === undefined)
        return {
          kind: 'unknown_tool',
          message: `Error: unknown tool '${name}'. The valid tools are: ${offered.map((t) => t.spec.name).join(', ')}.`,
        };
      const prepared = tool.prepare(args);
      if (!prepared.ok) return { kind: 'bad_arguments', message: prepared.message };
      const answer = prepared.run(state);
      state.step++;
      return answer.ok
        ? { kind: 'ran', ok: true, reply: JSON.stringify(answer.result), changes: answer.changes }
        : { kind: 'ran', ok: false, reply: JSON.stringify({ error: answer.error }), changes: [] };
    },
  };
}
