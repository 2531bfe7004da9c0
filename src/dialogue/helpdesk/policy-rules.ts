/**
 * The numbers of the IT policy the checks apply (tasks/helpdesk/policy.md states them to the agent;
 * test/dialogue/policy.test.ts keeps the two in step).
 */

/** A purchase whose total is above this needs the requester's manager's approval; at or below, none. */
export const APPROVAL_THRESHOLD_USD = 500;

/** Verification codes one conversation may send to one account: the first and one retry. */
export const MAX_CODES_PER_ACCOUNT = 2;
