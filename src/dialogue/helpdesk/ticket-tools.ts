/** Tickets: open one, change its priority or add a note, escalate it, close it. */
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
import { GROUPS, PRIORITIES } from './seed.js';

const FIRST_TICKET = 1001;
const CATEGORIES = ['account', 'hardware', 'software', 'network', 'security', 'purchase', 'other'] as const;

const createTicket = deskTool({
  name: 'create_ticket',
  description:
    "Open a ticket for an employee's request. Returns the ticket id. Open one ticket per conversation.",
  args: z.object({
    employee_id: EmployeeIdArg.describe('The employee the ticket is for (the person you are talking to)'),
    category: z.enum(CATEGORIES),
    summary: z.string().min(1).describe('One line describing the request'),
    priority: z.enum(PRIORITIES).describe('P1 (highest) to P4, as the IT policy defines them'),
  }),
  run(state, a) {
    const employee = employeeById(state, a.employee_id);
    if (employee === undefined) return fail(`no employee ${a.employee_id}`);
    const id = `T-${FIRST_TICKET + state.tickets.length}`;
    state.tickets.push({
      id,
      employee_id: employee.id,
      category: a.category,
      summary: a.summary,
      priority: a.priority,
      status: 'open',
      notes: [],
      escalation: null,
      resolution: null,
      closed_step: null,
      created_step: state.step,
    });
    return {
      ok: true,
      result: { ticket_id: id, status: 'open', priority: a.priority },
      changes: [`opened ${id} for ${employee.id} (${a.priority}, ${a.category}): ${a.summary}`],
    };
  },
});

const updateTicket = deskTool({
  name: 'update_ticket',
  description: "Change an open ticket's priority and/or add a note to it.",
  args: z.object({
    ticket_id: TicketIdArg,
    priority: z.enum(PRIORITIES).optional(),
    note: z.string().min(1).optional(),
  }),
  run(state, a) {
    const ticket = openTicket(state, a.ticket_id);
    if (typeof ticket === 'string') return fail(ticket);
    if (a.priority === undefined && a.note === undefined) return fail('give a priority, a note, or both');
    const changes: string[] = [];
    if (a.priority !== undefined && a.priority !== ticket.priority) {
      changes.push(`${ticket.id} priority ${ticket.priority} -> ${a.priority}`);
      ticket.priority = a.priority;
    }
    if (a.note !== undefined) {
      ticket.notes.push(a.note);
      changes.push(`${ticket.id} note: ${a.note}`);
    }
    return {
      ok: true,
      result: { ticket_id: ticket.id, status: ticket.status, priority: ticket.priority },
      changes,
    };
  },
});

const escalateTicket = deskTool({
  name: 'escalate_ticket',
  description:
    'Hand an open ticket to a tier-2 group (the policy says which group handles what). The ticket stays with that group; do not close it.',
  args: z.object({
    ticket_id: TicketIdArg,
    group: z.enum(GROUPS),
    reason: z.string().min(1).describe('Why it is escalated and what was tried'),
  }),
  run(state, a) {
    const ticket = openTicket(state, a.ticket_id);
    if (typeof ticket === 'string') return fail(ticket);
    if (ticket.status === 'escalated')
      return fail(`${ticket.id} is already escalated to ${ticket.escalation?.group}`);
    ticket.status = 'escalated';
    ticket.escalation = { group: a.group, reason: a.reason, step: state.step };
    return {
      ok: true,
      result: { ticket_id: ticket.id, status: 'escalated', group: a.group },
      changes: [`${ticket.id} escalated to ${a.group}: ${a.reason}`],
    };
  },
});

const closeTicket = deskTool({
  name: 'close_ticket',
  description:
    'Close a ticket: outcome "resolved" (the employee confirmed the fix, or the request was fulfilled) or "declined" (the policy does not allow it or it is not IT\'s to handle), with the resolution written for the record.',
  args: z.object({
    ticket_id: TicketIdArg,
    outcome: z.enum(['resolved', 'declined']),
    resolution: z.string().min(1).describe('What was done or why it was declined; cite the KB article used'),
  }),
  run(state, a) {
    const ticket = openTicket(state, a.ticket_id);
    if (typeof ticket === 'string') return fail(ticket);
    const before = ticket.status;
    ticket.status = a.outcome;
    ticket.resolution = a.resolution;
    ticket.closed_step = state.step;
    return {
      ok: true,
      result: { ticket_id: ticket.id, status: a.outcome },
      changes: [`${ticket.id} ${before} -> ${a.outcome}: ${a.resolution}`],
    };
  },
});

export const TICKET_TOOLS: readonly DeskTool[] = [createTicket, updateTicket, escalateTicket, closeTicket];
