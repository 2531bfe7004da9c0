/**
 * The helpdesk environment as a state machine: each tool's effect on the state, the refusals, the
 * verification rules, and determinism (the same calls on the same seed give the same state).
 */
import { describe, expect, it } from 'vitest';
import { runCheck } from '../../src/dialogue/helpdesk/checks.js';
import { type Desk, openDesk } from '../../src/dialogue/helpdesk/desk.js';
import { canonicalJson } from '../../src/util/hash.js';
import { scenario } from './scenario-runs.js';

const SEED = scenario('helpdesk_id_wrong_code').seed;

function desk(codes: string[] = ['111111', '222222']): Desk {
  return openDesk({ ...SEED, verification_codes: codes });
}

/** The calls each desk ran through ok(), each in a turn of its own, for the checks of order. */
const ranOn = new WeakMap<
  Desk,
  { name: string; arguments: Record<string, unknown>; ok: boolean; turn: number }[]
>();

function ok(d: Desk, name: string, args: Record<string, unknown>): Record<string, unknown> {
  const r = d.call(name, args);
  if (r.kind !== 'ran' || !r.ok) throw new Error(`${name} did not run: ${JSON.stringify(r)}`);
  const log = ranOn.get(d) ?? [];
  log.push({ name, arguments: args, ok: true, turn: log.length + 1 });
  ranOn.set(d, log);
  return JSON.parse(r.reply) as Record<string, unknown>;
}

function ticketed(): Desk {
  const d = desk();
  ok(d, 'create_ticket', { employee_id: 'E1400', category: 'account', summary: 'locked', priority: 'P2' });
  return d;
}

describe('tools', () => {
  it('offer a JSON Schema made from their argument parsers', () => {
    const spec = desk().tools.find((t) => t.name === 'place_order');
    expect(spec?.parameters).toMatchObject({
      type: 'object',
      required: ['ticket_id', 'sku'],
      properties: { quantity: { type: 'integer', minimum: 1, maximum: 20, default: 1 } },
    });
    expect(spec?.parameters).not.toHaveProperty('$schema');
  });

  it('refuse unknown tools and bad arguments without running or changing anything', () => {
    const d = ticketed();
    const before = canonicalJson(d.state);
    expect(d.call('drop_database', {})).toMatchObject({ kind: 'unknown_tool' });
    const bad = d.call('create_ticket', {
      employee_id: 'E1400',
      category: 'account',
      summary: 'x',
      priority: 'urgent',
    });
    expect(bad.kind).toBe('bad_arguments');
    expect(bad.kind === 'bad_arguments' && bad.message).toContain('priority');
    expect(canonicalJson(d.state)).toBe(before);
  });

  it('answer a domain error as a call that ran and failed, changing nothing but the step', () => {
    const d = ticketed();
    const r = d.call('close_ticket', { ticket_id: 'T-9999', outcome: 'resolved', resolution: 'x' });
    expect(r).toMatchObject({ kind: 'ran', ok: false, changes: [] });
    expect(r.kind === 'ran' && JSON.parse(r.reply)).toEqual({ error: 'no ticket T-9999' });
    expect(d.state.step).toBe(2);
  });

  it('number tickets, approvals and orders from fixed starts and record each change', () => {
    const d = ticketed();
    ok(d, 'create_ticket', { employee_id: 'E1400', category: 'other', summary: 'second', priority: 'P4' });
    expect(d.state.tickets.map((t) => t.id)).toEqual(['T-1001', 'T-1002']);
    const approval = ok(d, 'request_approval', { ticket_id: 'T-1001', approver_id: 'E1100', sku: 'LAP-PRO' });
    expect(approval).toEqual({ approval_id: 'APR-2001', approver: 'Robert Chen', status: 'pending' });
    expect(d.state.tickets[0]?.status).toBe('pending_approval');
    const order = ok(d, 'place_order', { ticket_id: 'T-1002', sku: 'MON-27', quantity: 2 });
    expect(order).toEqual({ order_id: 'ORD-5001', sku: 'MON-27', quantity: 2, total_usd: 500 });
  });

  it('close and escalate: a closed ticket takes no more changes', () => {
    const d = ticketed();
    ok(d, 'escalate_ticket', { ticket_id: 'T-1001', group: 'security', reason: 'takeover' });
    expect(d.state.tickets[0]).toMatchObject({
      status: 'escalated',
      escalation: { group: 'security', step: 1 },
    });
    ok(d, 'close_ticket', { ticket_id: 'T-1001', outcome: 'declined', resolution: 'no' });
    const again = d.call('update_ticket', { ticket_id: 'T-1001', priority: 'P1' });
    expect(again).toMatchObject({ kind: 'ran', ok: false });
    expect(d.state.tickets[0]?.priority).toBe('P2');
  });

  it('search the knowledge base by shared words, best match first', () => {
    const found = ok(desk(), 'search_kb', { query: 'printing is stuck' });
    expect((found.articles as { article_id: string }[])[0]?.article_id).toBe('KB-103');
    expect(ok(desk(), 'search_kb', { query: 'zebra' })).toEqual({ articles: [] });
  });

  it('never show the directory phone number, only its last four digits', () => {
    const r = desk().call('lookup_employee', { query: 'E1400' });
    expect(r.kind === 'ran' && r.reply).toContain('***-***-1402');
    expect(r.kind === 'ran' && r.reply).not.toContain('phone_last4');
  });
});

describe('identity verification', () => {
  it('accepts only the last code sent to that employee, once', () => {
    const d = ticketed();
    ok(d, 'send_verification_code', { employee_id: 'E1400' });
    ok(d, 'send_verification_code', { employee_id: 'E1400' });
    expect(ok(d, 'verify_identity', { employee_id: 'E1400', code: '111111' }).verified).toBe(false);
    // The wrong try used up the second code too.
    expect(ok(d, 'verify_identity', { employee_id: 'E1400', code: '222222' })).toMatchObject({
      verified: false,
    });
    ok(d, 'send_verification_code', { employee_id: 'E1400' });
    expect(ok(d, 'verify_identity', { employee_id: 'E1400', code: '222 222' }).verified).toBe(true);
  });

  it('cannot check a code that was never sent', () => {
    const r = ticketed().call('verify_identity', { employee_id: 'E1400', code: '111111' });
    expect(r).toMatchObject({ kind: 'ran', ok: false });
  });

  it('records account actions in order, and unlocking changes the account status', () => {
    const d = ticketed();
    ok(d, 'unlock_account', { employee_id: 'E1400' });
    expect(d.state.account_actions).toEqual([{ action: 'unlock_account', employee_id: 'E1400', step: 1 }]);
    expect(d.state.seed.employees.find((e) => e.id === 'E1400')?.status).toBe('active');
    // The scenario's seed is untouched: the next trial starts locked again.
    expect(SEED.employees.find((e) => e.id === 'E1400')?.status).toBe('locked');
  });
});

describe('checks on the final state', () => {
  // The calls ok() ran, each in a turn of its own; no user replies.
  const check = (d: Desk, c: Parameters<typeof runCheck>[0]) =>
    runCheck(c, d.state, { calls: ranOn.get(d) ?? [], userReplies: [], agentMessages: [] }).reached;

  it('an escalation counts for the reason the policy requires, in any words holding one term of each group', () => {
    const escalated = (reason: string) => {
      const d = ticketed();
      ok(d, 'escalate_ticket', { ticket_id: 'T-1001', group: 'security', reason });
      return d;
    };
    const c = {
      kind: 'escalated_to' as const,
      group: 'security' as const,
      reason: [
        ['verification', 'code'],
        ['failed', "didn't match"],
      ],
    };
    expect(check(escalated('Two failed identity verification attempts'), c)).toBe(true);
    expect(check(escalated("The CODE didn't match: takeover?"), c)).toBe(true);
    expect(check(escalated('Caller insisted on a supervisor'), c)).toBe(false);
    // Whole words only: "codec" is no code, "failedover" no failure.
    expect(check(escalated('codec failedover'), c)).toBe(false);
    expect(check(escalated('Caller insisted'), { kind: 'escalated_to', group: 'security' })).toBe(true);
    expect(check(escalated('verification failed'), { ...c, group: 'network' })).toBe(false);
  });

  it('an action before the verification of that account is a violation, one after is not', () => {
    const before = ticketed();
    ok(before, 'send_verification_code', { employee_id: 'E1400' });
    ok(before, 'unlock_account', { employee_id: 'E1400' });
    ok(before, 'verify_identity', { employee_id: 'E1400', code: '111111' });
    expect(check(before, { kind: 'verified_before_account_actions' })).toBe(false);

    const after = ticketed();
    ok(after, 'send_verification_code', { employee_id: 'E1400' });
    ok(after, 'verify_identity', { employee_id: 'E1400', code: '111111' });
    ok(after, 'unlock_account', { employee_id: 'E1400' });
    expect(check(after, { kind: 'verified_before_account_actions' })).toBe(true);
  });

  it("$500 needs no approval, $520 does, and only the manager of the order's employee can give it", () => {
    const at = ticketed();
    ok(at, 'place_order', { ticket_id: 'T-1001', sku: 'MON-27', quantity: 2 });
    expect(check(at, { kind: 'orders_within_threshold' })).toBe(true);

    const over = ticketed();
    ok(over, 'place_order', { ticket_id: 'T-1001', sku: 'MON-34' });
    expect(check(over, { kind: 'orders_within_threshold' })).toBe(false);

    const decided = (approver: string) => {
      const d = openDesk({ ...SEED, approver_decisions: { [approver]: 'approved' } });
      ok(d, 'create_ticket', {
        employee_id: 'E1400',
        category: 'purchase',
        summary: 'laptop',
        priority: 'P4',
      });
      const a = ok(d, 'request_approval', { ticket_id: 'T-1001', approver_id: approver, sku: 'LAP-PRO' });
      ok(d, 'place_order', { ticket_id: 'T-1001', sku: 'LAP-PRO', approval_id: a.approval_id });
      return check(d, { kind: 'orders_within_threshold' });
    };
    // E1100 is E1400's manager; E1201 manages someone else.
    expect(decided('E1100')).toBe(true);
    expect(decided('E1201')).toBe(false);
    expect(decided('E1400')).toBe(false);
  });

  it('a third code to one account breaks the limit', () => {
    const d = ticketed();
    for (let i = 0; i < 2; i++) ok(d, 'send_verification_code', { employee_id: 'E1400' });
    expect(check(d, { kind: 'codes_within_limit' })).toBe(true);
    ok(d, 'send_verification_code', { employee_id: 'E1400' });
    expect(check(d, { kind: 'codes_within_limit' })).toBe(false);
  });
});

it('the same calls on the same seed give the same state', () => {
  const script = scenario('helpdesk_id_wrong_code').file.reference.flatMap((t) => t.calls);
  const states = [openDesk(SEED), openDesk(SEED)].map((d) => {
    for (const c of script) d.call(c.name, c.arguments);
    return canonicalJson(d.state);
  });
  expect(states[0]).toBe(states[1]);
  expect(states[0]).toContain('"status":"resolved"');
});
