/**
 * The whole end state against the gold one: what counts as the same record (content, not ids or
 * wording), what an extra, missing or different record reads like, and the bound on the list.
 */
import { describe, expect, it } from 'vitest';
import { type Desk, openDesk } from '../../src/dialogue/helpdesk/desk.js';
import { endStateCheck, endStateDifferences } from '../../src/dialogue/helpdesk/end-state.js';
import { scenario } from './scenario-runs.js';

// E1400 starts locked here; E1042 and E1043 report to E1001.
const SEED = scenario('helpdesk_id_wrong_code').seed;

type Call = [name: string, args: Record<string, unknown>];

function deskAfter(calls: readonly Call[]): Desk {
  const d = openDesk({ ...SEED, verification_codes: ['111111'], approver_decisions: { E1001: 'approved' } });
  for (const [name, args] of calls) {
    const r = d.call(name, args);
    if (r.kind !== 'ran' || !r.ok) throw new Error(`${name} did not run: ${JSON.stringify(r)}`);
  }
  return d;
}

const ticket = (employee = 'E1043', priority = 'P4', summary = 'Second monitor'): Call => [
  'create_ticket',
  { employee_id: employee, category: 'purchase', summary, priority },
];
const order = (quantity = 1, sku = 'MON-27', ticketId = 'T-1001'): Call => [
  'place_order',
  { ticket_id: ticketId, sku, quantity },
];
const close = (resolution = 'Ordered.', ticketId = 'T-1001'): Call => [
  'close_ticket',
  { ticket_id: ticketId, outcome: 'resolved', resolution },
];
const GOLD: Call[] = [ticket(), order(), close('Ordered 1 x MON-27.')];

function differences(calls: readonly Call[], gold: readonly Call[] = GOLD): string[] {
  return endStateDifferences(deskAfter(calls).state, deskAfter(gold).state);
}

describe('end state', () => {
  it('is the same whatever the wording, category, notes, id spelling or order of creation', () => {
    expect(
      differences([
        ['create_ticket', { employee_id: 'e1043', category: 'hardware', summary: 'Monitor', priority: 'P4' }],
        ['update_ticket', { ticket_id: 't-1001', note: 'asked for the 27-inch' }],
        order(1, 'mon-27', 't-1001'),
        close('Done, the monitor is on its way.'),
      ]),
    ).toEqual([]);
    // Two orders placed in the other order: matched by content, not by ORD-5001 and ORD-5002.
    expect(
      differences(
        [ticket(), order(1, 'KEY-ERGO'), order(), close()],
        [ticket(), order(), order(1, 'KEY-ERGO'), close()],
      ),
    ).toEqual([]);
  });

  it('lists a second ticket left open as extra', () => {
    expect(differences([...GOLD, ticket('E1043', 'P3', 'Follow-up')])).toEqual([
      'extra ticket T-1002 (employee E1043, priority P3, status open, escalated_to none, cites none)',
    ]);
  });

  it('lists a duplicate order as extra, and an order not placed as missing', () => {
    expect(differences([ticket(), order(), order(), close()])).toEqual([
      'extra order ORD-5002 (for E1043, sku MON-27, quantity 1, total_usd 250, under none)',
    ]);
    expect(differences([ticket(), close()])).toEqual([
      'missing order (for E1043, sku MON-27, quantity 1, total_usd 250, under none)',
    ]);
  });

  it('shows a record that differs field by field: the wrong quantity, the wrong employee', () => {
    expect(differences([ticket(), order(2), close()])).toEqual([
      'order ORD-5001: quantity 2 (expected 1), total_usd 500 (expected 250)',
    ]);
    expect(differences([ticket('E1042'), order(), close()])).toEqual([
      'ticket T-1001: employee E1042 (expected E1043)',
      'order ORD-5001: for E1042 (expected E1043)',
    ]);
  });

  it('compares an approval by its content and an order by the approval it is placed under', () => {
    const approve = (quantity: number): Call => [
      'request_approval',
      { ticket_id: 'T-1001', approver_id: 'E1001', sku: 'LAP-PRO', quantity },
    ];
    const underIt: Call = [
      'place_order',
      { ticket_id: 'T-1001', sku: 'LAP-PRO', quantity: 1, approval_id: 'APR-2001' },
    ];
    expect(differences([ticket(), approve(2), underIt], [ticket(), approve(1), underIt])).toEqual([
      'approval APR-2001: quantity 2 (expected 1)',
      'order ORD-5001: under 2 x LAP-PRO for E1043 by E1001: approved (expected 1 x LAP-PRO for E1043 by E1001: approved)',
    ]);
  });

  it('counts account actions, codes sent, identity checks and account statuses', () => {
    const verified: Call[] = [
      ticket('E1400', 'P2'),
      ['send_verification_code', { employee_id: 'E1400' }],
      ['verify_identity', { employee_id: 'E1400', code: '111111' }],
      ['unlock_account', { employee_id: 'E1400' }],
    ];
    expect(differences([...verified, ['reset_mfa', { employee_id: 'E1400' }]], verified)).toEqual([
      'extra account action (action reset_mfa, employee E1400)',
    ]);
    expect(differences(verified.slice(0, 3), verified)).toEqual([
      'missing account action (action unlock_account, employee E1400)',
      'account E1400: status locked (expected active)',
    ]);
    expect(differences([ticket('E1400', 'P2')], verified.slice(0, 2))).toEqual([
      'missing code sent (to E1400)',
    ]);
  });

  it('compares a resolution by the articles it cites', () => {
    const kb = (resolution: string): Call[] => [ticket('E1300', 'P3'), close(resolution)];
    expect(differences(kb('Fixed per kb-103.'), kb('Cleared the queue (KB-103).'))).toEqual([]);
    expect(differences(kb('Fixed per KB-101.'), kb('Cleared the queue (KB-103).'))).toEqual([
      'ticket T-1001: cites KB-101 (expected KB-103)',
    ]);
  });

  it('lists at most six differences, then counts the rest; the check joins them as its detail', () => {
    const many = Array.from({ length: 9 }, () => ticket());
    const listed = differences([...GOLD, ...many]);
    expect(listed).toHaveLength(7);
    expect(listed.at(-1)).toBe('and 3 more differences');
    const check = endStateCheck(deskAfter([...GOLD, ...many]).state, deskAfter(GOLD).state);
    expect(check).toEqual({ reached: false, detail: listed.join('; ') });
    expect(endStateCheck(deskAfter(GOLD).state, deskAfter(GOLD).state)).toEqual({
      reached: true,
      step: null,
    });
  });
});
