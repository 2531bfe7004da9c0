/**
 * The checks that judge an order of events, and judge it the way the agent lived it: what a tool
 * returned reaches the agent only when the turn that sent the call ends, and the user's answer to a
 * message only in the next turn. So evidence counts for a decision only if it was shown in an
 * earlier turn than the call that acted on it: an article read and a close sent in one turn is a
 * citation decided before the article was seen, a close sent before the user's "it works" is a
 * close decided before the confirmation, an order sent with its approval request is an order
 * decided before the approval came.
 */
import { z } from 'zod';
import { mentionsAny } from '../user/phrases.js';
import { APPROVAL_THRESHOLD_USD } from './policy-rules.js';
import { type DeskState, mainTicket } from './state.js';

/** A call that ran, as the checks see it (refused calls never reach the state), with its turn. */
interface RanCall {
  name: string;
  arguments: Record<string, unknown>;
  ok: boolean;
  /** The turn the agent sent it in. */
  turn: number;
}

/** What the checks read of a conversation besides the final state. */
export interface Conversation {
  /** Every call that ran, in order: the i-th is the desk's step i. */
  calls: readonly RanCall[];
  /** The user's replies, each with the turn whose message it answered (shown to the agent in the next). */
  userReplies: readonly { turn: number; text: string }[];
  /** What the agent told the user: each turn's text that made no tool calls (words.ts judges it). */
  agentMessages: readonly { turn: number; text: string }[];
}

export type CheckOutcome = { reached: true; step: number | null } | { reached: false; detail: string };

/**
 * The close of a resolved ticket needs the user's word that the fix worked (policy 1.3): `said`
 * are phrases of that message (whole words, `*` a word prefix, as the user's `when` phrases),
 * `fact` the scripted user's fact that says it (the pack checks that the phrases match it and no
 * other line the user may say).
 */
export const confirmedBeforeClose = z.strictObject({
  kind: z.literal('closed_after_confirmation'),
  fact: z.string().min(1),
  said: z.array(z.string().regex(/[a-z0-9]/i)).min(1),
});

type OrderedCheck =
  | { kind: 'resolution_cites'; article: string }
  | { kind: 'article_read'; article: string }
  | { kind: 'verified_before_account_actions' }
  | { kind: 'orders_within_threshold' }
  | z.infer<typeof confirmedBeforeClose>;

const at = (step: number | null): CheckOutcome => ({ reached: true, step });
const missed = (detail: string): CheckOutcome => ({ reached: false, detail });

/** The knowledge-base ids a text cites, upper-cased, each once, sorted. */
export function citedArticles(text: string): string[] {
  return [...new Set((text.match(/\bKB-\d{3}\b/gi) ?? []).map((id) => id.toUpperCase()))].sort();
}

export function orderedCheck(c: OrderedCheck, state: DeskState, conv: Conversation): CheckOutcome {
  const ticket = mainTicket(state);
  const turnOf = (step: number | null): number | null =>
    step === null ? null : (conv.calls[step]?.turn ?? null);
  switch (c.kind) {
    case 'resolution_cites': {
      if (ticket === null || ticket.resolution === null) return missed('the ticket was not closed');
      const cited = citedArticles(ticket.resolution);
      if (!cited.includes(c.article))
        return missed(`resolution does not cite ${c.article}: "${ticket.resolution}"`);
      const closedIn = turnOf(ticket.closed_step);
      const unread = cited.find((id) => readBefore(conv, id, closedIn) === null);
      return unread === undefined
        ? at(ticket.closed_step)
        : missed(
            `${unread} is cited, but its content was not shown to the agent before the close (turn ${closedIn})`,
          );
    }
    case 'article_read': {
      const endedIn = turnOf(ticket?.closed_step ?? ticket?.escalation?.step ?? null);
      const step = readBefore(conv, c.article, endedIn);
      if (step !== null) return at(step);
      return missed(
        endedIn === null
          ? `${c.article} was never read`
          : `${c.article} was not read in an earlier turn than the ticket was ended (turn ${endedIn})`,
      );
    }
    case 'verified_before_account_actions': {
      const unverified = state.account_actions.find((a) => {
        const actedIn = turnOf(a.step) ?? Number.POSITIVE_INFINITY;
        return !state.verifications.some(
          (v) => v.ok && v.employee_id === a.employee_id && (turnOf(v.step) ?? actedIn) < actedIn,
        );
      });
      return unverified === undefined
        ? at(null)
        : missed(
            `${unverified.action} on ${unverified.employee_id} in turn ${turnOf(unverified.step)} without a verified identity shown in an earlier turn`,
          );
    }
    case 'orders_within_threshold': {
      for (const order of state.orders) {
        if (order.total_usd <= APPROVAL_THRESHOLD_USD) continue;
        const why = unapproved(state, conv, order);
        if (why !== null) return missed(`${order.id} ($${order.total_usd}) ${why}`);
      }
      return at(null);
    }
    case 'closed_after_confirmation': {
      if (ticket === null || ticket.closed_step === null) return missed('the ticket was not closed');
      const closedIn = turnOf(ticket.closed_step) ?? 0;
      const confirmed = conv.userReplies.find((r) => mentionsAny(r.text, c.said));
      if (confirmed === undefined)
        return missed(`closed in turn ${closedIn}; the user never confirmed the fix`);
      return confirmed.turn < closedIn
        ? at(ticket.closed_step)
        : missed(
            `closed in turn ${closedIn}, before the user's confirmation was shown (answering turn ${confirmed.turn})`,
          );
    }
  }
}

type Order = DeskState['orders'][number];

/**
 * Why an order over the threshold is not covered (null: it is): it needs an approval granted to the
 * order's employee by their manager, for this item, covering the quantity, whose `approved` the
 * agent had seen in an earlier turn than the order's (request_approval returns it; list_approvals
 * lists it). An order sent with the request, in one turn, was decided before the answer came.
 */
function unapproved(state: DeskState, conv: Conversation, order: Order): string | null {
  if (order.approval_id === null) return 'without an approval';
  const approval = state.approvals.find((a) => a.id === order.approval_id);
  const owner = state.tickets.find((t) => t.id === order.ticket_id)?.employee_id;
  const requester = state.seed.employees.find((e) => e.id === approval?.requester_id);
  if (
    approval === undefined ||
    approval.requester_id !== owner ||
    approval.status !== 'approved' ||
    approval.sku !== order.sku ||
    approval.quantity < order.quantity ||
    requester?.manager_id !== approval.approver_id
  )
    return "without an approval by the requester's manager for it";
  const orderedIn = conv.calls[order.step]?.turn ?? 0;
  const shown = conv.calls.some(
    (call, step) =>
      call.ok &&
      call.turn < orderedIn &&
      ((call.name === 'request_approval' && step === approval.step) ||
        (call.name === 'list_approvals' &&
          String(call.arguments.employee_id).trim().toUpperCase() === approval.requester_id &&
          (approval.step === null || step > approval.step))),
  );
  return shown
    ? null
    : `placed in turn ${orderedIn}, before ${approval.id}'s approval was shown to the agent`;
}

/** The step of the first successful read of the article sent before `turn` (any turn when null). */
function readBefore(conv: Conversation, article: string, turn: number | null): number | null {
  const step = conv.calls.findIndex(
    (call) =>
      call.ok &&
      call.name === 'get_kb_article' &&
      String(call.arguments.article_id).trim().toUpperCase() === article &&
      (turn === null || call.turn < turn),
  );
  return step === -1 ? null : step;
}
