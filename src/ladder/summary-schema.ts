/**
 * Reading a ladder summary back (`ladder-<run id>.json`, summary-file.ts): parsed once through one
 * schema, typed against the interface it parses; anything else is a one-line reason. Objects are not
 * strict: a later agent-bench may add fields.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { LADDER_SCHEMA, type LadderSummary } from './summary-file.js';

const count = z.int().min(0);
const shardOf = z.object({ index: z.int().min(1), count: z.int().min(1), group: z.string().min(1) });

const RungSummarySchema = z.object({
  model: z.string(),
  model_id: z.string(),
  results_model: z.string().nullable(),
  family: z.string().nullable(),
  parameters_b: z.number().nullable(),
  active_parameters_b: z.number().nullable(),
  quantization: z.string().nullable(),
  size_bytes: z.number().nullable(),
  size_source: z.enum(['server', 'file', 'estimate']).nullable(),
  status: z.enum(['passed', 'failed', 'undecided', 'error', 'interrupted', 'not_run']),
  tasks: z.record(
    z.string(),
    z.object({
      run_id: z.string(),
      status: z.string(),
      pass_all_k: z.boolean(),
      pass_hat_k: z.number().nullable(),
      trials_run: count,
      trials_passed: count,
      tamper_detected_count: count,
    }),
  ),
  elapsed_sec: z.number(),
  clear_time_sec: z.number().nullable(),
  error: z.string().nullable(),
  server_log: z.string().nullable(),
  ctx: z.int().min(1).nullable().optional(),
  cache_type: z.string().nullable().optional(),
  kv_cache_bytes: z.number().min(0).nullable().optional(),
  memory_estimate_bytes: z.number().min(0).nullable().optional(),
  server_peak_rss_bytes: z.number().min(0).nullable().optional(),
  peak_rss_of: z.enum(['server', 'process']).optional(),
  speed: z.object({ prompt_tps: z.number().nullable(), generation_tps: z.number().nullable() }).optional(),
  sequential: z
    .object({
      decision: z.enum(['passed', 'failed', 'undecided', 'open']),
      passed: count,
      measured: count,
      trials_per_task: count,
      lower: z.number().min(0).max(1),
      upper: z.number().min(0).max(1),
    })
    .optional(),
});

const LadderSummarySchema: z.ZodType<LadderSummary> = z.object({
  schema: z.literal(LADDER_SCHEMA),
  run_id: z.string(),
  status: z.enum(['running', 'complete', 'interrupted']),
  suite: z.string(),
  tasks: z.array(z.string()),
  k: z.int().min(1),
  early_stop: z.boolean(),
  exhaustive: z.boolean(),
  target: z.number().gt(0).lt(1).optional(),
  confidence: z.number().gt(0).lt(1).optional(),
  max_k: z.int().min(1).optional(),
  source: z.union([
    z.object({ base_url: z.string() }),
    z.object({ gguf_dir: z.string(), server_cmd: z.string().nullable() }),
  ]),
  started_at: z.string(),
  updated_at: z.string(),
  rungs: z.array(RungSummarySchema),
  passing: z.array(z.string()),
  verdict: z.string().nullable(),
  shard: shardOf.optional(),
  merged: z
    .object({
      group: z.string(),
      count: z.int().min(1),
      parts: z.array(z.object({ shard: z.int().min(1), run_id: z.string() })),
    })
    .optional(),
}) as z.ZodType<LadderSummary>;

export type ParsedLadder = { ok: true; summary: LadderSummary } | { ok: false; reason: string };

export async function readLadderSummary(path: string): Promise<ParsedLadder> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, 'utf8'));
  } catch (err) {
    const why =
      err instanceof SyntaxError
        ? 'not valid JSON'
        : `cannot be read (${(err as NodeJS.ErrnoException).code})`;
    return { ok: false, reason: why };
  }
  const parsed = LadderSummarySchema.safeParse(raw);
  if (parsed.success) return { ok: true, summary: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? '' : `${issue.path.join('.')}: `;
  return { ok: false, reason: `not a ladder summary this agent-bench reads (${where}${issue?.message})` };
}
