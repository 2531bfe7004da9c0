/**
 * `--price-table FILE`: what a trial cost in USD. Per million prompt and completion tokens (a hosted
 * model), or per hour of the machine (local hardware: the trial's model and tool time). A model is
 * priced by the entry whose `match` is the longest part of its name; a model no entry matches has no
 * USD figure (never a guessed price).
 *
 *   { "as_of": "2026-05", "prices": [
 *       { "match": "gpt-4o", "prompt_usd_per_mtok": 2.5, "completion_usd_per_mtok": 10 },
 *       { "match": "qwen3", "usd_per_hour": 0.9 } ] }
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { UsageError } from '../util/errors.js';

const rate = z.number().min(0);
const EntrySchema = z.union([
  z.object({ match: z.string().min(1), prompt_usd_per_mtok: rate, completion_usd_per_mtok: rate }).strict(),
  z.object({ match: z.string().min(1), usd_per_hour: rate }).strict(),
]);
const PriceTableSchema = z.object({ as_of: z.string().optional(), prices: z.array(EntrySchema) }).strict();

export type PriceTable = z.infer<typeof PriceTableSchema>;
type PriceEntry = PriceTable['prices'][number];

export async function readPriceTable(path: string): Promise<PriceTable> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, 'utf8'));
  } catch (err) {
    throw new UsageError(
      `--price-table ${path}: ${err instanceof SyntaxError ? 'not valid JSON' : 'cannot be read'}`,
      {
        cause: err,
      },
    );
  }
  const parsed = PriceTableSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(
      `--price-table ${path}: ${issue?.path.join('.') || 'top level'}: ${issue?.message ?? 'invalid'} (see docs/axes.md)`,
    );
  }
  return parsed.data;
}

/** A function pricing one trial of this model, or null when no entry matches it. */
export function pricerFor(
  table: PriceTable,
  model: string,
): ((t: { prompt_tokens: number; completion_tokens: number; elapsed_sec: number }) => number) | null {
  const entry = table.prices
    .filter((p) => model.includes(p.match))
    .sort((a, b) => b.match.length - a.match.length)[0];
  if (entry === undefined) return null;
  return (t) => priceOf(entry, t);
}

function priceOf(
  e: PriceEntry,
  t: { prompt_tokens: number; completion_tokens: number; elapsed_sec: number },
): number {
  if ('usd_per_hour' in e) return (e.usd_per_hour * t.elapsed_sec) / 3600;
  return (t.prompt_tokens * e.prompt_usd_per_mtok + t.completion_tokens * e.completion_usd_per_mtok) / 1e6;
}
