/**
 * The results file of one (task, model, run): its shape, its name, and its atomic write. It is
 * rewritten after every trial, so a crash loses at most the trial in flight.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TrialRecord } from '../agent/record.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { canonicalJson, sha256 } from '../util/hash.js';
import type { RunSettings } from './settings.js';

export const SCHEMA_VERSION = '2.0';

export interface Environment {
  sandbox_image: string;
  image_id: string | null;
  image_source: string | null;
  sampling: RunSettings['sampling'];
  base_url: string | null;
  server: EnvironmentServer | null;
  model: string;
  harness_version: string;
  node_version: string;
  docker_version: string | null;
}

/** What the model server said about itself (null values: it did not say). */
export interface EnvironmentServer {
  kind: string;
  version: string | null;
  context_length: number | null;
  parallel_slots: number | null;
  /** Whether the model's chat template supports tools; false means the text-format parser carries the run. */
  tool_support: boolean | null;
}

export interface FlagSummary {
  kind: 'process' | 'outcome';
  reach_rate: number;
  avg_turns: number | null;
}

export interface ResultFile {
  schema_version: string;
  run_id: string;
  task_id: string;
  task_version: string;
  model: string;
  status: 'running' | 'complete' | 'interrupted' | 'error';
  k: number;
  trials_run: number;
  early_stopped: boolean;
  container_reuse: boolean;
  pass_all_k: boolean;
  /** Mean trial score. */
  score: number;
  /** Unbiased estimate C(c,k)/C(n,k) from the trials run; null when fewer than k trials ran and none failed. */
  pass_hat_k: number | null;
  skills: Record<string, FlagSummary>;
  invalid_tool_call_count: number;
  tamper_detected_count: number;
  native_tool_calls: number;
  text_tool_calls: number;
  usage: { prompt_tokens: number; completion_tokens: number };
  elapsed_sec: number;
  avg_turns: number;
  comparable: boolean;
  non_comparable_reasons: string[];
  settings: RunSettings;
  started_at: string;
  updated_at: string;
  error: string | null;
  environment: Environment;
  /** Content digest of the skill folder a skill task ran with (absent for other tasks). */
  skill_digest?: string;
  trials: TrialRecord[];
  result_hash: string;
}

export function resultFileName(taskId: string, model: string, runId: string): string {
  return `${taskId}__${modelSlug(model)}__${runId}.json`;
}

/** A model name as a file-name part: readable, and distinct names stay distinct. */
export function modelSlug(model: string): string {
  const readable = model.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'model';
  return readable === model ? readable : `${readable}-${sha256(model).slice(0, 6)}`;
}

export function newRunId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('.', '');
  return `${stamp}-${Math.random().toString(16).slice(2, 6)}`;
}

export function withHash(result: Omit<ResultFile, 'result_hash'>): ResultFile {
  return { ...result, result_hash: sha256(canonicalJson(result)) };
}

/** True when the stored hash matches the content (an integrity check, not a signature). */
export function verifyHash(result: ResultFile): boolean {
  const { result_hash, ...rest } = result;
  return sha256(canonicalJson(rest)) === result_hash;
}

export async function writeResultFile(dir: string, result: ResultFile): Promise<string> {
  const path = join(dir, resultFileName(result.task_id, result.model, result.run_id));
  await writeFileAtomic(path, `${JSON.stringify(result, null, 2)}\n`);
  return path;
}

/** Every parseable results file in dir (unreadable ones are skipped, never fatal). */
export async function readResultFiles(dir: string): Promise<{ path: string; result: ResultFile }[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const out: { path: string; result: ResultFile }[] = [];
  for (const name of names.filter((n) => n.endsWith('.json')).sort()) {
    const path = join(dir, name);
    try {
      const parsed: unknown = JSON.parse(await readFile(path, 'utf8'));
      if (isResultFile(parsed)) out.push({ path, result: parsed });
    } catch {
      // A half-copied or foreign JSON file is not ours to judge here.
    }
  }
  return out;
}

function isResultFile(v: unknown): v is ResultFile {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return typeof o.schema_version === 'string' && typeof o.task_id === 'string' && Array.isArray(o.trials);
}
