/**
 * Reading and writing results files. Every reader goes through readResultFile(s): a file is parsed
 * once, version-checked and hash-checked here, and is either a typed ResultFile or a one-line reason
 * it was not used. Nothing downstream re-checks it.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.js';
import { canonicalJson, sha256 } from '../util/hash.js';
import { resultFileName } from './layout.js';
import type { ResultFile } from './result-file.js';
import { ResultFileSchema } from './schema.js';
import { upgradeResult } from './upgrade.js';
import { SCHEMA_VERSION, unreadableVersion } from './version.js';

export type ParsedResult =
  | { ok: true; result: ResultFile }
  /** foreign: not an agent-bench results file at all (e.g. a ladder summary), so no problem to report. */
  | { ok: false; reason: string; foreign: boolean };

/** A file of the results folder that was not used, and why. */
export interface ResultProblem {
  path: string;
  reason: string;
}

export function withHash(result: Omit<ResultFile, 'result_hash' | 'schema_version'>): ResultFile {
  const versioned = { schema_version: SCHEMA_VERSION, ...result };
  return { ...versioned, result_hash: sha256(canonicalJson(versioned)) };
}

/** True when the stored hash matches the content (an integrity check, not a signature). */
export function verifyHash(value: object): boolean {
  const { result_hash, ...rest } = value as { result_hash?: unknown };
  return typeof result_hash === 'string' && sha256(canonicalJson(rest)) === result_hash;
}

export async function writeResultFile(dir: string, result: ResultFile): Promise<string> {
  const path = join(dir, resultFileName(result.task_id, result.model, result.run_id, result.condition));
  await writeFileAtomic(path, `${JSON.stringify(result, null, 2)}\n`);
  return path;
}

export function parseResultFile(text: string): ParsedResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not valid JSON (truncated or corrupted)', foreign: false };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || !('schema_version' in raw))
    return { ok: false, reason: 'not an agent-bench results file', foreign: true };
  const version = typeof raw.schema_version === 'string' ? raw.schema_version : String(raw.schema_version);
  const unreadable = unreadableVersion(version);
  if (unreadable !== null) return { ok: false, reason: unreadable, foreign: false };
  // The hash covers the file as written, so it is checked before the schema drops or reshapes anything.
  if (!verifyHash(raw))
    return {
      ok: false,
      reason: 'content does not match its result_hash (edited by hand or corrupted)',
      foreign: false,
    };
  const parsed = ResultFileSchema.safeParse(upgradeResult(raw, version));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? '' : `${issue.path.join('.')}: `;
    return {
      ok: false,
      reason: `does not match the results schema (${where}${issue?.message})`,
      foreign: false,
    };
  }
  return { ok: true, result: parsed.data };
}

export async function readResultFile(path: string): Promise<ParsedResult> {
  let text: string;
  try {
    // A fifo named x.json in a shared results folder would block the read forever.
    if (!(await stat(path)).isFile()) return { ok: false, reason: 'not a regular file', foreign: false };
    text = await readFile(path, 'utf8');
  } catch (err) {
    return {
      ok: false,
      reason: `cannot be read (${(err as NodeJS.ErrnoException).code ?? err})`,
      foreign: false,
    };
  }
  return parseResultFile(text);
}

/**
 * Every results file in dir, in name order, and every file that looked like one but was not used.
 * A missing folder is an empty one.
 */
export async function readResultFiles(
  dir: string,
): Promise<{ results: { path: string; result: ResultFile }[]; problems: ResultProblem[] }> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const results: { path: string; result: ResultFile }[] = [];
  const problems: ResultProblem[] = [];
  // Dot files are the dashboard's own (settings, a run's status file), never results.
  for (const name of names.filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort()) {
    const path = join(dir, name);
    const parsed = await readResultFile(path);
    if (parsed.ok) results.push({ path, result: parsed.result });
    else if (!parsed.foreign) problems.push({ path, reason: parsed.reason });
  }
  return { results, problems };
}

/** The line a reader prints for a file it skipped. */
export function describeProblem(p: ResultProblem): string {
  return `skipped ${p.path}: ${p.reason}`;
}
