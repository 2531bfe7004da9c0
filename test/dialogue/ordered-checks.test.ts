/**
 * The checks of order judge turns, not call order: what a call returned reaches the agent only when
 * its turn ends, the user's answer in the next turn. A decision sent in the same turn as its
 * evidence was decided without it.
 */
import { describe, expect, it } from 'vitest';
import { type Conversation, type DeskCheck, runCheck } from '../../src/dialogue/helpdesk/checks.js';
import { openDesk } from '../../src/dialogue/helpdesk/desk.js';
import type { DeskState } from '../../src/dialogue/helpdesk/state.js';
import { scenario } from './scenario-runs.js';

const SEED = scenario('helpdesk_id_wrong_code').seed;

type TurnCall = [turn: number, name: string, args: Record<string, unknown>];

/** The desk after the calls, each sent in its turn, and the user's replies. */
function played(calls: readonly TurnCall[], userReplies: Conversation['userReplies'] = []) {
  // E1100 manages E1400, and approves at once.
  const d = openDesk({ ...SEED, verification_codes: ['111111'], approver_decisions: { E1100: 'approved' } });
  const ran = calls.map(([turn, name, args]) => {
    const r = d.call(name, args);
    if (r.kind !== 'ran' || !r.ok) throw new Error(`${name} did not run`);
    return { turn, name, arguments: args, ok: true };
  });
  return { state: d.state as DeskState, conversation: { calls: ran, userReplies, agentMessages: [] } };
}

const check = (c: DeskCheck, p: ReturnType<typeof played>) => runCheck(c, p.state, p.conversation);

const open: TurnCall = [
  1,
  'create_ticket',
  { employee_id: 'E1300', category: 'hardware', summary: 'print', priority: 'P3' },
];
const read = (turn: number, article = 'KB-103'): TurnCall => [
  turn,
  'get_kb_article',
  { article_id: article },
];
const close = (turn: number, resolution = 'Queue cleared per KB-103.'): TurnCall => [
  turn,
  'close_ticket',
  { ticket_id: 'T-1001', outcome: 'resolved', resolution },
];

describe('a cited article', () => {
  const cites: DeskCheck = { kind: 'resolution_cites', article: 'KB-103' };
  const readIt: DeskCheck = { kind: 'article_read', article: 'KB-103' };

  it('counts when it was read in an earlier turn than the close', () => {
    const p = played([open, read(2), close(3)]);
    expect(check(cites, p)).toEqual({ reached: true, step: 2 });
    expect(check(readIt, p)).toEqual({ reached: true, step: 1 });
  });

  it('does not when the read and the close were sent in one turn, or the read came after', () => {
    const same = played([open, read(3), close(3)]);
    expect(check(cites, same)).toEqual({
      reached: false,
      detail: 'KB-103 is cited, but its content was not shown to the agent before the close (turn 3)',
    });
    expect(check(readIt, same)).toMatchObject({ reached: false });
    expect(check(readIt, played([open, close(2), read(3)]))).toMatchObject({ reached: false });
  });

  it('needs every article the resolution cites read first', () => {
    const p = played([open, read(2), close(3, 'Per KB-103 and KB-101.')]);
    expect(check(cites, p)).toMatchObject({
      reached: false,
      detail: expect.stringContaining('KB-101 is cited'),
    });
  });
});

describe('an account action', () => {
  const verified: DeskCheck = { kind: 'verified_before_account_actions' };
  const actedIn = (verifyTurn: number, unlockTurn: number) =>
    played([
      [1, 'send_verification_code', { employee_id: 'E1400' }],
      [verifyTurn, 'verify_identity', { employee_id: 'E1400', code: '111111' }],
      [unlockTurn, 'unlock_account', { employee_id: 'E1400' }],
    ]);

  it('counts as verified only when the verification was shown in an earlier turn', () => {
    expect(check(verified, actedIn(2, 3))).toEqual({ reached: true, step: null });
    expect(check(verified, actedIn(2, 2))).toMatchObject({
      reached: false,
      detail: 'unlock_account on E1400 in turn 2 without a verified identity shown in an earlier turn',
    });
  });
});

describe('a close that needs the user to confirm', () => {
  const confirmed: DeskCheck = {
    kind: 'closed_after_confirmation',
    fact: 'fix_worked',
    said: ['came out', 'works now'],
  };
  // The user's reply to the message of turn 3 reaches the agent in turn 4.
  const replies = [
    { turn: 2, text: 'Only my jobs are stuck.' },
    { turn: 3, text: 'The contract just came out!' },
  ];

  it('counts when the close was sent after the confirmation was shown', () => {
    expect(check(confirmed, played([open, close(4)], replies))).toEqual({ reached: true, step: 1 });
  });

  it('does not when the close came first, or the user never confirmed', () => {
    expect(check(confirmed, played([open, close(3)], replies))).toEqual({
      reached: false,
      detail: "closed in turn 3, before the user's confirmation was shown (answering turn 3)",
    });
    expect(check(confirmed, played([open, close(4)], replies.slice(0, 1)))).toMatchObject({
      reached: false,
      detail: 'closed in turn 4; the user never confirmed the fix',
    });
  });
});

describe('an order over the threshold', () => {
  const covered: DeskCheck = { kind: 'orders_within_threshold' };
  const laptop: TurnCall = [
    1,
    'create_ticket',
    { employee_id: 'E1400', category: 'purchase', summary: 'laptop', priority: 'P4' },
  ];
  const ask = (turn: number): TurnCall => [
    turn,
    'request_approval',
    { ticket_id: 'T-1001', approver_id: 'E1100', sku: 'LAP-PRO' },
  ];
  const order = (turn: number): TurnCall => [
    turn,
    'place_order',
    { ticket_id: 'T-1001', sku: 'LAP-PRO', approval_id: 'APR-2001' },
  ];

  it("counts under the manager's approval once the agent had seen it approved", () => {
    expect(check(covered, played([laptop, ask(2), order(3)]))).toEqual({ reached: true, step: null });
    // Or seen again by list_approvals, in an earlier turn than the order.
    const listed = played([laptop, ask(2), [3, 'list_approvals', { employee_id: 'e1400' }], order(4)]);
    expect(check(covered, listed)).toEqual({ reached: true, step: null });
  });

  it('does not when the order was sent in the same turn as the request', () => {
    expect(check(covered, played([laptop, ask(2), order(2)]))).toEqual({
      reached: false,
      detail: "ORD-5001 ($650) placed in turn 2, before APR-2001's approval was shown to the agent",
    });
  });
});
