/**
 * The scripted baseline's next move, decided afresh from the conversation at every turn (so it
 * never drifts from what happened): look the employee up, open the ticket, then follow the rule for
 * the kind of request (intent.ts). It applies the policy's hard rules (verify before any account
 * action, one retry then security, $500 threshold, KB first, decline out-of-scope keywords); it has
 * no judgement about people or impact, and asks nothing it does not strictly need.
 */

import type { ScriptedTurn } from '../../models/scripted.js';
import { APPROVAL_THRESHOLD_USD, MAX_CODES_PER_ACCOUNT } from '../helpdesk/policy-rules.js';
import { callsOf, type History } from './history.js';
import { accountActionOf, categoryOf, intentOf, priorityOf, quantityOf, saysFixed } from './intent.js';

const call = (name: string, args: Record<string, unknown>): ScriptedTurn => ({
  calls: [{ name, arguments: args }],
});
const say = (text: string): ScriptedTurn => ({ text, calls: [] });

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export function decide(h: History): ScriptedTurn {
  const employee = obj((callsOf(h, 'lookup_employee').at(-1)?.result.matches as unknown[] | undefined)?.[0]);
  const employeeId = str(employee.employee_id);
  if (employeeId === '') return identify(h);
  const intent = intentOf(h.opening);
  const ticketId = str(callsOf(h, 'create_ticket')[0]?.result.ticket_id);
  if (ticketId === '')
    return call('create_ticket', {
      employee_id: employeeId,
      category: categoryOf(intent),
      summary: h.opening.slice(0, 100),
      priority: priorityOf(intent, h.opening),
    });
  const t = { h, ticketId, employeeId, employee };
  switch (intent) {
    case 'security':
      return escalateOnce(t, 'security', `Security incident reported by the employee: ${h.opening}`);
    case 'out_of_scope':
      return closeOnce(
        t,
        'declined',
        'Out of scope for IT (policy section 5).',
        'IT cannot help with this request, it is out of scope. I have closed ticket',
      );
    case 'account':
      return account(t);
    case 'purchase':
      return purchase(t);
    case 'technical':
      return technical(t);
  }
}

interface Ticketed {
  h: History;
  ticketId: string;
  employeeId: string;
  employee: Obj;
}

function identify(h: History): ScriptedTurn {
  const text = h.userTexts.join(' ');
  const id = /\bE\d{4}\b/.exec(text)?.[0];
  const tried = new Set(h.calls.filter((c) => c.name === 'lookup_employee').map((c) => str(c.args.query)));
  if (id !== undefined && !tried.has(id)) return call('lookup_employee', { query: id });
  const name = /\b([A-Z][a-z]+ [A-Z][a-z]+)\b/.exec(h.opening)?.[1];
  if (name !== undefined && !tried.has(name)) return call('lookup_employee', { query: name });
  return say('Could you tell me your employee ID?');
}

const escalated = (h: History): boolean => callsOf(h, 'escalate_ticket').length > 0;
const closed = (h: History): boolean => callsOf(h, 'close_ticket').length > 0;

function escalateOnce(t: Ticketed, group: string, reason: string): ScriptedTurn {
  if (!escalated(t.h)) return call('escalate_ticket', { ticket_id: t.ticketId, group, reason });
  return say(`I have escalated ticket ${t.ticketId} to the ${group} team; they will contact you.`);
}

function closeOnce(
  t: Ticketed,
  outcome: 'resolved' | 'declined',
  resolution: string,
  message: string,
): ScriptedTurn {
  if (!closed(t.h)) return call('close_ticket', { ticket_id: t.ticketId, outcome, resolution });
  return say(`${message} ${t.ticketId}.`);
}

function account(t: Ticketed): ScriptedTurn {
  const { h, employeeId, ticketId } = t;
  const action = accountActionOf(h.opening);
  if (callsOf(h, action).length > 0)
    return closeOnce(
      t,
      'resolved',
      `Identity verified; ${action} done.`,
      `Done: ${action.replace('_', ' ')} completed. I have closed ticket`,
    );
  if (escalated(h)) return escalateOnce(t, 'security', '');
  const sent = callsOf(h, 'send_verification_code').length;
  const checks = callsOf(h, 'verify_identity');
  if (checks.some((c) => c.result.verified === true)) return call(action, { employee_id: employeeId });
  const failed = checks.length;
  if (failed >= MAX_CODES_PER_ACCOUNT) {
    if (callsOf(h, 'update_ticket').length === 0)
      return call('update_ticket', { ticket_id: ticketId, priority: 'P1' });
    return escalateOnce(t, 'security', 'Two failed identity verifications: suspected account takeover');
  }
  if (sent === 0 || (failed === sent && sent < MAX_CODES_PER_ACCOUNT))
    return call('send_verification_code', { employee_id: employeeId });
  const code = /\b\d{6}\b/.exec(h.lastUser)?.[0];
  const lastChecked = str(checks.at(-1)?.args.code);
  if (code !== undefined && code !== lastChecked && failed < sent)
    return call('verify_identity', { employee_id: employeeId, code });
  return say(
    failed > 0
      ? 'That code did not match. I have sent a new code; please read me the new code.'
      : 'I have sent a verification code to your registered phone. Please read me the code.',
  );
}

function purchase(t: Ticketed): ScriptedTurn {
  const { h, ticketId } = t;
  const search = callsOf(h, 'search_catalog')[0];
  if (search === undefined) return call('search_catalog', { query: h.opening });
  const item = obj((search.result.items as unknown[] | undefined)?.[0]);
  const sku = str(item.sku);
  if (sku === '')
    return closeOnce(
      t,
      'declined',
      'Item not in the catalogue.',
      'That item is not in our catalogue. I have closed ticket',
    );
  const quantity = quantityOf(h.opening);
  const order = callsOf(h, 'place_order')[0];
  if (order !== undefined)
    return closeOnce(
      t,
      'resolved',
      `Ordered ${quantity} x ${sku} (${str(order.result.order_id)}).`,
      `Your order ${str(order.result.order_id)} is placed. I have closed ticket`,
    );
  const total = Number(item.price_usd) * quantity;
  if (total <= APPROVAL_THRESHOLD_USD) return call('place_order', { ticket_id: ticketId, sku, quantity });
  const approval = callsOf(h, 'request_approval')[0];
  const manager = str(obj(t.employee.manager).employee_id);
  if (approval === undefined) {
    if (manager === '')
      return closeOnce(
        t,
        'declined',
        'No manager to approve a purchase over $500.',
        "A purchase over $500 needs a manager's approval. I have closed ticket",
      );
    return call('request_approval', { ticket_id: ticketId, approver_id: manager, sku, quantity });
  }
  if (approval.result.status === 'approved')
    return call('place_order', {
      ticket_id: ticketId,
      sku,
      quantity,
      approval_id: str(approval.result.approval_id),
    });
  return say(
    `This costs $${total}, over the $${APPROVAL_THRESHOLD_USD} limit, so it needs your manager's approval. I have requested it; ticket ${ticketId} waits for the approval.`,
  );
}

/** Where a problem goes when its article's steps did not fix it. */
function groupFor(articleId: string): string {
  if (articleId === 'KB-106') return 'hardware_repair';
  if (articleId === 'KB-110') return 'network';
  return 'applications';
}

function technical(t: Ticketed): ScriptedTurn {
  const { h } = t;
  const search = callsOf(h, 'search_kb')[0];
  if (search === undefined) return call('search_kb', { query: h.opening });
  const articleId = str(obj((search.result.articles as unknown[] | undefined)?.[0]).article_id);
  if (articleId === '') return escalateOnce(t, 'applications', 'No knowledge-base article matches');
  const article = callsOf(h, 'get_kb_article')[0];
  if (article === undefined) return call('get_kb_article', { article_id: articleId });
  const steps = (article.result.steps as unknown[] | undefined)?.map(str).join(' ') ?? '';
  const stepsSaid = h.said.findIndex((s) => s.includes(steps));
  if (stepsSaid === -1) return say(`Please try these steps: ${steps} Did that fix it?`);
  if (closed(h) || escalated(h))
    return closed(h)
      ? closeOnce(t, 'resolved', '', 'Glad it works. I have closed ticket')
      : escalateOnce(t, groupFor(articleId), '');
  // The user's answer to the steps is the message after them.
  const answer = h.userTexts[stepsSaid + 1] ?? '';
  return saysFixed(answer)
    ? closeOnce(
        t,
        'resolved',
        `Resolved with ${articleId}; the employee confirmed.`,
        'Glad it works. I have closed ticket',
      )
    : // The reason is what the employee said: the policy's ground for the handoff is in their words.
      escalateOnce(
        t,
        groupFor(articleId),
        `${articleId} steps did not fix it. The employee said: ${h.userTexts.join(' ')}`,
      );
}
