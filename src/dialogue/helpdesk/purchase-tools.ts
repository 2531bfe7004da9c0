/**
 * Hardware purchases: approvals and orders. As with accounts, the tools let the helpdesk order
 * anything; the approval threshold is policy, and the checks read it from the orders placed.
 */
import { z } from 'zod';
import {
  type DeskTool,
  deskTool,
  EmployeeIdArg,
  employeeById,
  fail,
  openTicket,
  TicketIdArg,
} from './desk-tool.js';
import type { DeskState } from './state.js';

const FIRST_APPROVAL = 2001;
const FIRST_ORDER = 5001;

const Sku = z.string().min(1).describe('Catalogue SKU, e.g. MON-27');
const Quantity = z.number().int().min(1).max(20).default(1);

function item(state: DeskState, sku: string) {
  return state.seed.catalog.find((i) => i.sku === sku.trim().toUpperCase());
}

const requestApproval = deskTool({
  name: 'request_approval',
  description:
    "Ask an approver to approve a purchase for the ticket's employee. Returns the approval id and its status; while it is pending the ticket waits (pending_approval).",
  args: z.object({
    ticket_id: TicketIdArg,
    approver_id: EmployeeIdArg.describe('Employee id of the approver'),
    sku: Sku,
    quantity: Quantity,
  }),
  run(state, a) {
    const ticket = openTicket(state, a.ticket_id);
    if (typeof ticket === 'string') return fail(ticket);
    const approver = employeeById(state, a.approver_id);
    if (approver === undefined) return fail(`no employee ${a.approver_id}`);
    const wanted = item(state, a.sku);
    if (wanted === undefined) return fail(`no catalogue item ${a.sku}`);
    const id = `APR-${FIRST_APPROVAL + state.approvals.filter((x) => x.step !== null).length}`;
    const status = state.seed.approver_decisions[approver.id] ?? 'pending';
    state.approvals.push({
      id,
      requester_id: ticket.employee_id,
      approver_id: approver.id,
      sku: wanted.sku,
      quantity: a.quantity,
      status,
      ticket_id: ticket.id,
      step: state.step,
    });
    const changes = [
      `${id}: ${a.quantity} x ${wanted.sku} for ${ticket.employee_id}, asked of ${approver.id}: ${status}`,
    ];
    if (status === 'pending') {
      changes.push(`${ticket.id} ${ticket.status} -> pending_approval`);
      ticket.status = 'pending_approval';
    }
    return { ok: true, result: { approval_id: id, approver: approver.name, status }, changes };
  },
});

const listApprovals = deskTool({
  name: 'list_approvals',
  description: 'List the purchase approvals requested for an employee, with their status.',
  args: z.object({ employee_id: EmployeeIdArg }),
  run(state, { employee_id }) {
    const employee = employeeById(state, employee_id);
    if (employee === undefined) return fail(`no employee ${employee_id}`);
    const approvals = state.approvals
      .filter((x) => x.requester_id === employee.id)
      .map((x) => ({
        approval_id: x.id,
        approver_id: x.approver_id,
        sku: x.sku,
        quantity: x.quantity,
        status: x.status,
      }));
    return { ok: true, result: { approvals }, changes: [] };
  },
});

const placeOrder = deskTool({
  name: 'place_order',
  description:
    "Order catalogue hardware for the ticket's employee. Give the approval id when the purchase needed one.",
  args: z.object({
    ticket_id: TicketIdArg,
    sku: Sku,
    quantity: Quantity,
    approval_id: z
      .string()
      .min(1)
      .optional()
      .describe('The approval this order is placed under, when it needs one'),
  }),
  run(state, a) {
    const ticket = openTicket(state, a.ticket_id);
    if (typeof ticket === 'string') return fail(ticket);
    const wanted = item(state, a.sku);
    if (wanted === undefined) return fail(`no catalogue item ${a.sku}`);
    const approvalId = a.approval_id?.trim().toUpperCase() ?? null;
    if (approvalId !== null && !state.approvals.some((x) => x.id === approvalId))
      return fail(`no approval ${a.approval_id}`);
    const id = `ORD-${FIRST_ORDER + state.orders.length}`;
    const total = wanted.price_usd * a.quantity;
    state.orders.push({
      id,
      ticket_id: ticket.id,
      sku: wanted.sku,
      quantity: a.quantity,
      total_usd: total,
      approval_id: approvalId,
      step: state.step,
    });
    return {
      ok: true,
      result: { order_id: id, sku: wanted.sku, quantity: a.quantity, total_usd: total },
      changes: [
        `${id}: ${a.quantity} x ${wanted.sku} ($${total}) on ${ticket.id}${approvalId === null ? '' : ` under ${approvalId}`}`,
      ],
    };
  },
});

export const PURCHASE_TOOLS: readonly DeskTool[] = [requestApproval, listApprovals, placeOrder];
