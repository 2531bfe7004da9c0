/**
 * One helpdesk tool: its spec as the model sees it (the JSON Schema comes from the zod schema the
 * arguments are parsed with, so the two never disagree), and what it does to the desk's state.
 */
import { z } from 'zod';
import type { ToolSpec } from '../../models/types.js';
import type { Employee } from './seed.js';
import type { DeskState, Ticket } from './state.js';

/** What a call did: its result (shown to the model as JSON) and each change it made, in words. */
export type ToolAnswer = { ok: true; result: unknown; changes: string[] } | { ok: false; error: string };

export interface DeskTool {
  spec: ToolSpec;
  /** Parses the arguments into a run against the state (which it changes), or says what to resend. */
  prepare(
    args: Record<string, unknown>,
  ): { ok: true; run: (state: DeskState) => ToolAnswer } | { ok: false; message: string };
}

export function deskTool<A>(t: {
  name: string;
  description: string;
  args: z.ZodType<A, Record<string, unknown>>;
  run: (state: DeskState, args: A) => ToolAnswer;
}): DeskTool {
  const { $schema: _, ...parameters } = z.toJSONSchema(t.args, { io: 'input' }) as Record<string, unknown>;
  return {
    spec: { name: t.name, description: t.description, parameters },
    prepare(args) {
      const parsed = t.args.safeParse(args);
      if (!parsed.success) {
        const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`);
        return {
          ok: false,
          message: `Error: bad arguments for ${t.name} (${issues.join('; ')}). Resend the call.`,
        };
      }
      return { ok: true, run: (state) => t.run(state, parsed.data) };
    },
  };
}

export const fail = (error: string): ToolAnswer => ({ ok: false, error });

export function employeeById(state: DeskState, id: string): Employee | undefined {
  return state.seed.employees.find((e) => e.id === id.trim().toUpperCase());
}

/** The ticket, or why a tool cannot work on it. */
export function openTicket(state: DeskState, id: string): Ticket | string {
  const ticket = state.tickets.find((t) => t.id === id.trim().toUpperCase());
  if (ticket === undefined) return `no ticket ${id}`;
  if (ticket.status === 'resolved' || ticket.status === 'declined')
    return `ticket ${ticket.id} is closed (${ticket.status})`;
  return ticket;
}

export const EmployeeIdArg = z.string().min(1).describe('Employee id, e.g. E1042');
export const TicketIdArg = z.string().min(1).describe('Ticket id, e.g. T-1001');
