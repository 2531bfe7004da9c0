/**
 * The helpdesk's state during one trial: a copy of the seed (an account's status is the only part a
 * tool changes) and what the tools did.
 * Everything that happened carries `step`, the index of the tool call that did it (0-based, over
 * every call that ran), so the checks can tell what came first: a reset before a verification is a
 * violation even if the verification follows.
 */
import type { ApprovalStatus, DeskSeed, Group, Priority } from './seed.js';

export const TICKET_STATUSES = ['open', 'pending_approval', 'escalated', 'resolved', 'declined'] as const;
type TicketStatus = (typeof TICKET_STATUSES)[number];

/** The account actions the policy allows only after the account's owner proved who they are. */
export const ACCOUNT_ACTIONS = ['reset_password', 'unlock_account', 'reset_mfa'] as const;
export type AccountAction = (typeof ACCOUNT_ACTIONS)[number];

export interface Ticket {
  id: string;
  employee_id: string;
  category: string;
  summary: string;
  priority: Priority;
  status: TicketStatus;
  notes: string[];
  escalation: { group: Group; reason: string; step: number } | null;
  /** Set when the ticket was closed (resolved or declined). */
  resolution: string | null;
  closed_step: number | null;
  created_step: number;
}

interface Approval {
  id: string;
  requester_id: string;
  approver_id: string;
  sku: string;
  quantity: number;
  status: ApprovalStatus;
  ticket_id: string | null;
  /** null: it existed before the conversation. */
  step: number | null;
}

interface Order {
  id: string;
  ticket_id: string;
  sku: string;
  quantity: number;
  total_usd: number;
  approval_id: string | null;
  step: number;
}

export interface DeskState {
  seed: DeskSeed;
  tickets: Ticket[];
  codes_sent: { employee_id: string; code: string; step: number }[];
  verifications: { employee_id: string; code: string; ok: boolean; step: number }[];
  account_actions: { action: AccountAction; employee_id: string; step: number }[];
  approvals: Approval[];
  orders: Order[];
  /** The next call's step. */
  step: number;
}

export function initialState(seed: DeskSeed): DeskState {
  return {
    seed: structuredClone(seed),
    tickets: [],
    codes_sent: [],
    verifications: [],
    account_actions: [],
    approvals: seed.approvals.map((a) => ({ ...a, ticket_id: null, step: null })),
    orders: [],
    step: 0,
  };
}

/** The conversation's ticket: policy opens exactly one, so the first one opened is the one judged. */
export function mainTicket(state: DeskState): Ticket | null {
  return state.tickets[0] ?? null;
}
