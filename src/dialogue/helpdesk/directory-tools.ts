/** Read-only tools: the employee directory, the knowledge base and the hardware catalogue. */
import { z } from 'zod';
import { type DeskTool, deskTool, employeeById, fail } from './desk-tool.js';
import type { Employee } from './seed.js';
import type { DeskState } from './state.js';
import { bestMatches } from './word-match.js';

/** What the directory shows the helpdesk: never the full phone number. */
function directoryEntry(state: DeskState, e: Employee): Record<string, unknown> {
  const manager = e.manager_id === null ? undefined : employeeById(state, e.manager_id);
  return {
    employee_id: e.id,
    name: e.name,
    email: e.email,
    title: e.title,
    department: e.department,
    location: e.location,
    account_status: e.status,
    registered_phone: `***-***-${e.phone_last4}`,
    manager: manager === undefined ? null : { employee_id: manager.id, name: manager.name },
  };
}

const lookupEmployee = deskTool({
  name: 'lookup_employee',
  description:
    'Find an employee in the directory by employee id, email address or name. Returns their directory entry (account status, manager, registered phone ending).',
  args: z.object({ query: z.string().min(1).describe('An employee id (E1042), an email address or a name') }),
  run(state, { query }) {
    const q = query.trim().toLowerCase();
    const found = state.seed.employees.filter(
      (e) => e.id.toLowerCase() === q || e.email.toLowerCase() === q || e.name.toLowerCase().includes(q),
    );
    if (found.length === 0) return fail(`no employee matches "${query}"`);
    return { ok: true, result: { matches: found.map((e) => directoryEntry(state, e)) }, changes: [] };
  },
});

const searchKb = deskTool({
  name: 'search_kb',
  description:
    'Search the IT knowledge base. Returns up to three articles (id, title, summary), best match first.',
  args: z.object({ query: z.string().min(1).describe('Words describing the problem') }),
  run(state, { query }) {
    const found = bestMatches(
      query,
      state.seed.kb,
      (a) => `${a.title} ${a.keywords.join(' ')}`,
      (a) => a.id,
      3,
    );
    return {
      ok: true,
      result: { articles: found.map((a) => ({ article_id: a.id, title: a.title, summary: a.summary })) },
      changes: [],
    };
  },
});

const getKbArticle = deskTool({
  name: 'get_kb_article',
  description: 'Read one knowledge-base article in full: its steps.',
  args: z.object({ article_id: z.string().min(1).describe('Article id, e.g. KB-101') }),
  run(state, { article_id }) {
    const article = state.seed.kb.find((a) => a.id === article_id.trim().toUpperCase());
    if (article === undefined) return fail(`no article ${article_id}`);
    return {
      ok: true,
      result: {
        article_id: article.id,
        title: article.title,
        summary: article.summary,
        steps: article.steps,
      },
      changes: [],
    };
  },
});

const searchCatalog = deskTool({
  name: 'search_catalog',
  description: 'Search the hardware catalogue. Returns matching items with their SKU and unit price in USD.',
  args: z.object({ query: z.string().min(1).describe('What the employee asks for, e.g. "monitor"') }),
  run(state, { query }) {
    const found = bestMatches(
      query,
      state.seed.catalog,
      (i) => `${i.name} ${i.keywords.join(' ')}`,
      (i) => i.sku,
      5,
    );
    return {
      ok: true,
      result: { items: found.map((i) => ({ sku: i.sku, name: i.name, price_usd: i.price_usd })) },
      changes: [],
    };
  },
});

export const DIRECTORY_TOOLS: readonly DeskTool[] = [lookupEmployee, searchKb, getKbArticle, searchCatalog];
