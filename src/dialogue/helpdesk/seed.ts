/**
 * The helpdesk's seed data as scenario files write it (tasks/helpdesk/): the directory, the
 * knowledge base, the hardware catalogue, approvals that exist before the conversation, and what the
 * outside world answers (the codes an employee's phone receives, how an approver decides). Parsed
 * once here; the desk (desk.ts) starts every trial from a copy of it.
 */
import { z } from 'zod';

export const EMPLOYEE_ID = /^E\d{4}$/;
export const PRIORITIES = ['P1', 'P2', 'P3', 'P4'] as const;
export type Priority = (typeof PRIORITIES)[number];
/** The tier-2 groups a ticket can be escalated to (the policy says which handles what). */
export const GROUPS = [
  'security',
  'network',
  'hardware_repair',
  'access_management',
  'applications',
] as const;
export type Group = (typeof GROUPS)[number];

const Employee = z.strictObject({
  id: z.string().regex(EMPLOYEE_ID),
  name: z.string().min(1),
  email: z.string().min(3),
  title: z.string().min(1),
  department: z.string().min(1),
  location: z.string().min(1),
  manager_id: z.string().regex(EMPLOYEE_ID).nullable(),
  /** Where verification codes go; the agent is shown only the last four digits. */
  phone_last4: z.string().regex(/^\d{4}$/),
  status: z.enum(['active', 'locked', 'terminated']),
});
export type Employee = z.infer<typeof Employee>;

const KbArticle = z.strictObject({
  id: z.string().regex(/^KB-\d{3}$/),
  title: z.string().min(1),
  /** Words search_kb matches besides the title's. */
  keywords: z.array(z.string().min(1)),
  summary: z.string().min(1),
  steps: z.array(z.string().min(1)).min(1),
});
type KbArticle = z.infer<typeof KbArticle>;

const CatalogItem = z.strictObject({
  sku: z.string().regex(/^[A-Z0-9-]+$/),
  name: z.string().min(1),
  keywords: z.array(z.string().min(1)),
  price_usd: z.number().int().positive(),
});
type CatalogItem = z.infer<typeof CatalogItem>;

const ApprovalStatus = z.enum(['pending', 'approved', 'rejected']);
export type ApprovalStatus = z.infer<typeof ApprovalStatus>;

const SeedApproval = z.strictObject({
  id: z.string().regex(/^APR-\d+$/),
  requester_id: z.string().regex(EMPLOYEE_ID),
  approver_id: z.string().regex(EMPLOYEE_ID),
  sku: z.string().min(1),
  quantity: z.number().int().positive(),
  status: ApprovalStatus,
});
type SeedApproval = z.infer<typeof SeedApproval>;

/** The shared part of a pack (tasks/helpdesk/base.json): what every scenario starts from. */
export const BaseSeed = z.strictObject({
  employees: z.array(Employee).min(1),
  kb: z.array(KbArticle),
  catalog: z.array(CatalogItem),
});

/** A scenario's own seed: entries replacing (same id) or joining the base ones, and the world's answers. */
export const ScenarioSeed = z.strictObject({
  /** The desk's clock: ISO date-time, for the prompt and the records. */
  now: z.iso.datetime({ offset: true }),
  employees: z.array(Employee).default([]),
  kb: z.array(KbArticle).default([]),
  catalog: z.array(CatalogItem).default([]),
  approvals: z.array(SeedApproval).default([]),
  /** What the n-th send_verification_code sends (to the employee's phone); after the last, the last again. */
  verification_codes: z.array(z.string().regex(/^\d{6}$/)).default(['000000']),
  /** How an approver answers a new approval request at once; absent: it stays pending. */
  approver_decisions: z.record(z.string().regex(EMPLOYEE_ID), ApprovalStatus).default({}),
});

export interface DeskSeed {
  now: string;
  employees: Employee[];
  kb: KbArticle[];
  catalog: CatalogItem[];
  approvals: SeedApproval[];
  verification_codes: string[];
  approver_decisions: Record<string, ApprovalStatus>;
}

/** The base with the scenario's entries on top: an entry with a base entry's id replaces it. */
export function mergeSeed(base: z.infer<typeof BaseSeed>, own: z.infer<typeof ScenarioSeed>): DeskSeed {
  return {
    now: own.now,
    employees: overlay(base.employees, own.employees, (e) => e.id),
    kb: overlay(base.kb, own.kb, (a) => a.id),
    catalog: overlay(base.catalog, own.catalog, (i) => i.sku),
    approvals: own.approvals,
    verification_codes: own.verification_codes,
    approver_decisions: own.approver_decisions,
  };
}

function overlay<T>(base: readonly T[], own: readonly T[], key: (t: T) => string): T[] {
  const replaced = new Set(own.map(key));
  return [...base.filter((t) => !replaced.has(key(t))), ...own];
}
