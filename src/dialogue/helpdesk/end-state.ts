/**
 * The desk's end state judged whole, as tau-bench judges its database: the state the agent left is
 * compared with the state the scenario's gold actions leave on a fresh copy of its data, record by
 * record, so an extra ticket, a duplicate order, an approval for the wrong quantity or an MFA reset
 * nobody asked for is a difference even where no flag names it.
 *
 * Each record is reduced to the fields the policy decides; what the desk generates or the agent
 * words freely is not compared literally:
 * - ids (T-1001, APR-2001, ORD-5001) and steps are not compared: records are matched by content, and
 *   a reference to another record (an order's approval) is replaced by that record's content;
 * - free text is compared by what it points at: a resolution by the KB articles it cites; a
 *   ticket's summary, category, notes and an escalation's reason are the agent's wording, not state
 *   the policy prescribes, and are left out;
 * - a verification code is the seed's (the n-th code sent), so codes sent count by account.
 */
import { citedArticles } from './ordered-checks.js';
import type { DeskState } from './state.js';

type Field = string | number | boolean | null;

/** The kinds of record, in the order differences are listed. */
const KINDS = [
  'ticket',
  'approval',
  'order',
  'account action',
  'code sent',
  'identity check',
  'account',
] as const;
type RecordKind = (typeof KINDS)[number];

interface StateRecord {
  kind: RecordKind;
  /** How the agent's own record is named in a difference (its id, where it has one). */
  label: string;
  fields: Record<string, Field>;
}

/** At most this many differences are listed; the rest are counted. */
const MAX_LISTED = 6;

function endStateRecords(state: DeskState): StateRecord[] {
  const approval = (id: string | null): Field => {
    const a = state.approvals.find((x) => x.id === id);
    return a === undefined
      ? null
      : `${a.quantity} x ${a.sku} for ${a.requester_id} by ${a.approver_id}: ${a.status}`;
  };
  const ticketOwner = (id: string): Field => state.tickets.find((t) => t.id === id)?.employee_id ?? null;
  return [
    ...state.tickets.map((t) =>
      record('ticket', t.id, {
        employee: t.employee_id,
        priority: t.priority,
        status: t.status,
        escalated_to: t.escalation?.group ?? null,
        cites: t.resolution === null ? null : citedArticles(t.resolution).join(' '),
      }),
    ),
    ...state.approvals.map((a) =>
      record('approval', a.id, {
        requester: a.requester_id,
        approver: a.approver_id,
        sku: a.sku,
        quantity: a.quantity,
        status: a.status,
      }),
    ),
    ...state.orders.map((o) =>
      record('order', o.id, {
        for: ticketOwner(o.ticket_id),
        sku: o.sku,
        quantity: o.quantity,
        total_usd: o.total_usd,
        under: approval(o.approval_id),
      }),
    ),
    ...state.account_actions.map((a) =>
      record('account action', '', { action: a.action, employee: a.employee_id }),
    ),
    ...state.codes_sent.map((c) => record('code sent', '', { to: c.employee_id })),
    ...state.verifications.map((v) =>
      record('identity check', '', { employee: v.employee_id, verified: v.ok }),
    ),
    ...[...state.seed.employees]
      .sort((a, b) => a.id.localeCompare(b.id))
      .map((e) => record('account', e.id, { employee: e.id, status: e.status })),
  ];
}

function record(kind: RecordKind, label: string, fields: Record<string, Field>): StateRecord {
  return { kind, label, fields };
}

/**
 * The differences between the agent's end state and the expected one, in words, at most
 * MAX_LISTED of them (then how many more): empty when they are the same.
 */
export function endStateDifferences(actual: DeskState, expected: DeskState): string[] {
  const mine = endStateRecords(actual);
  const gold = endStateRecords(expected);
  const all = KINDS.flatMap((kind) =>
    differencesOf(
      mine.filter((r) => r.kind === kind),
      gold.filter((r) => r.kind === kind),
    ),
  );
  return all.length <= MAX_LISTED
    ? all
    : [...all.slice(0, MAX_LISTED), `and ${all.length - MAX_LISTED} more differences`];
}

/**
 * Records are matched by content (a multiset: two equal orders need two equal gold orders); the
 * unmatched ones left on both sides are paired in creation order and shown field by field, and
 * what is left over is extra (the agent's) or missing (the gold's).
 */
function differencesOf(mine: StateRecord[], gold: StateRecord[]): string[] {
  const unmatchedGold = [...gold];
  const unmatchedMine: StateRecord[] = [];
  for (const r of mine) {
    const i = unmatchedGold.findIndex((g) => sameFields(g.fields, r.fields));
    if (i === -1) unmatchedMine.push(r);
    else unmatchedGold.splice(i, 1);
  }
  const out: string[] = [];
  const paired = Math.min(unmatchedMine.length, unmatchedGold.length);
  for (let i = 0; i < paired; i++) {
    const [m, g] = [unmatchedMine[i], unmatchedGold[i]];
    if (m === undefined || g === undefined) continue;
    const changed = Object.keys(g.fields)
      .filter((k) => m.fields[k] !== g.fields[k])
      .map((k) => `${k} ${shown(m.fields[k])} (expected ${shown(g.fields[k])})`);
    out.push(`${named(m)}: ${changed.join(', ')}`);
  }
  for (const m of unmatchedMine.slice(paired)) out.push(`extra ${named(m)} (${listed(m.fields)})`);
  for (const g of unmatchedGold.slice(paired)) out.push(`missing ${g.kind} (${listed(g.fields)})`);
  return out;
}

function sameFields(a: Record<string, Field>, b: Record<string, Field>): boolean {
  return Object.keys(a).every((k) => a[k] === b[k]);
}

const named = (r: StateRecord): string => (r.label === '' ? r.kind : `${r.kind} ${r.label}`);
const shown = (v: Field | undefined): string =>
  v === null || v === undefined || v === '' ? 'none' : String(v);
const listed = (fields: Record<string, Field>): string =>
  Object.entries(fields)
    .map(([k, v]) => `${k} ${shown(v)}`)
    .join(', ');

/** The end_state flag's rule, as `list` and the results show it. */
export const END_STATE_RULE =
  "The desk's whole end state equals the one the scenario's gold actions leave on a fresh copy of its data: every ticket (employee, priority, status, escalation group, KB articles its resolution cites), approval, order, account action, code sent, identity check and account status, matched by content (generated ids and wording are not compared). Anything extra, missing or different fails.";

/** Reached when nothing differs (no single call reaches it: step null); else the differences. */
export function endStateCheck(
  actual: DeskState,
  expected: DeskState,
): { reached: true; step: null } | { reached: false; detail: string } {
  const differences = endStateDifferences(actual, expected);
  return differences.length === 0
    ? { reached: true, step: null }
    : { reached: false, detail: differences.join('; ') };
}
