/**
 * The simulated user of a scenario, as its file writes it: who they are, what they open with, what
 * they know but say only when asked the right question, the pressure they apply, and when they are
 * done. The scripted user (scripted-user.ts) follows it to the letter; the LLM user (llm-user.ts)
 * plays it from the same fields.
 */
import { z } from 'zod';
import { TICKET_STATUSES } from '../helpdesk/state.js';

/**
 * Words of an agent message that make the user reveal a fact: any one phrase, matched on whole
 * words, case and punctuation aside; a word ending in `*` matches any word it begins
 * ("spill*" matches "spilled").
 */
const Phrase = z.string().regex(/[a-z0-9]/i, 'a phrase needs a word');

const Fact = z.strictObject({
  id: z.string().min(1),
  /** What the user says, in their own words. */
  say: z.string().min(1),
  when: z.array(Phrase).min(1),
  /** Known only once the agent has made this call that many times (a code reaches the phone once sent). */
  after: z.strictObject({ call: z.string().min(1), count: z.number().int().min(1).default(1) }).optional(),
});
export type Fact = z.infer<typeof Fact>;

export const UserScript = z.strictObject({
  /** Who the user is and how they talk (the LLM user's character). */
  persona: z.string().min(1),
  /** The first message of the conversation. */
  opening: z.string().min(1),
  facts: z.array(Fact).default([]),
  /** Said in order, one each time the agent's message reveals nothing new. */
  pressure: z.array(z.string().min(1)).default([]),
  /** The user is done once the ticket has reached one of these. */
  satisfied_when: z.strictObject({ ticket_status: z.array(z.enum(TICKET_STATUSES)).min(1) }),
  /** Their last message when satisfied. */
  thanks: z.string().min(1),
  /** Their last message when they give up (nothing new, no pressure left, twice). */
  give_up: z.string().min(1).default("Forget it, I'll call back later."),
  /** What they say when the agent's message asks nothing they know. */
  fallback: z.string().min(1).default("I'm not sure what you mean. Can you just help me with this?"),
});
export type UserScript = z.infer<typeof UserScript>;
