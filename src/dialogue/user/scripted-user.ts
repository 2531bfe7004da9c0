/**
 * The deterministic user: the same agent messages always get the same answers. For each agent
 * message, in this order:
 * 1. satisfied (the scenario's condition holds on the environment): say thanks and end;
 * 2. the message asks about facts the user knows and has not said (available ones only: a code
 *    is known once sent): say them, in the scenario's order;
 * 3. pressure lines left: say the next one;
 * 4. otherwise the fallback line; the second time in a row with nothing else to say, give up and end.
 */
import { mentionsAny } from './phrases.js';
import type { SimulatedUser, UserTurn, UserView } from './simulated-user.js';
import type { Fact, UserScript } from './user-script.js';

/** Fallback replies in a row after which the user gives up. */
const PATIENCE = 2;

export function scriptedUser(script: UserScript): SimulatedUser {
  const said = new Set<string>();
  let pressure = 0;
  let stalls = 0;
  const turn = (text: string, ended: boolean): UserTurn => ({ text, ended, usage: null });
  const known = (fact: Fact, view: UserView): boolean =>
    fact.after === undefined || view.callCount(fact.after.call) >= fact.after.count;

  return {
    opening: script.opening,
    async reply(message, view) {
      if (view.satisfied()) return turn(script.thanks, true);
      const asked = script.facts.filter(
        (f) => !said.has(f.id) && known(f, view) && mentionsAny(message, f.when),
      );
      if (asked.length > 0) {
        stalls = 0;
        for (const f of asked) said.add(f.id);
        return turn(asked.map((f) => f.say).join(' '), false);
      }
      const push = script.pressure[pressure];
      if (push !== undefined) {
        pressure++;
        return turn(push, false);
      }
      stalls++;
      return stalls >= PATIENCE ? turn(script.give_up, true) : turn(script.fallback, false);
    },
  };
}
