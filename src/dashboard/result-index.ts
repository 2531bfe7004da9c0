/**
 * The dashboard's view of the results folder: a summary per results file (no transcripts), refreshed
 * incrementally (only files whose size or mtime changed are read again), plus a small cache of whole
 * files for the transcript routes.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type ResultSummary, summarizeResult } from '../report/summary.js';
import type { ResultFile } from '../run/result-file.js';

interface Entry {
  mtimeMs: number;
  size: number;
  summary: ResultSummary | null;
}

const READ_CONCURRENCY = 8;
const FILE_CACHE = 4;

export function createResultIndex(dir: string) {
  const entries = new Map<string, Entry>();
  const files = new Map<string, { key: string; result: ResultFile }>();
  let inFlight: Promise<ResultSummary[]> | null = null;

  async function scan(): Promise<ResultSummary[]> {
    const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.json')).sort();
    const seen = new Set(names);
    for (const name of entries.keys()) if (!seen.has(name)) entries.delete(name);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < names.length) {
        const name = names[next++] as string;
        const info = await stat(join(dir, name)).catch(() => null);
        if (info === null || !info.isFile()) continue;
        const old = entries.get(name);
        if (old !== undefined && old.mtimeMs === info.mtimeMs && old.size === info.size) continue;
        const result = await parse(join(dir, name));
        entries.set(name, {
          mtimeMs: info.mtimeMs,
          size: info.size,
          summary: result === null ? null : summarize(name, result),
        });
      }
    };
    await Promise.all(Array.from({ length: READ_CONCURRENCY }, worker));
    return [...entries.values()].flatMap((e) => (e.summary === null ? [] : [e.summary]));
  }

  return {
    /** Every readable result's summary; concurrent callers share one scan. */
    summaries(): Promise<ResultSummary[]> {
      inFlight ??= scan().finally(() => {
        inFlight = null;
      });
      return inFlight;
    },

    /** The whole results file, for a name the index knows (anything else is null: never a path from outside). */
    async read(name: string): Promise<ResultFile | null> {
      const entry = entries.get(name);
      if (entry?.summary == null) return null;
      const key = `${entry.mtimeMs}:${entry.size}`;
      const cached = files.get(name);
      if (cached?.key === key) return cached.result;
      const result = await parse(join(dir, name));
      if (result === null) return null;
      files.delete(name);
      files.set(name, { key, result });
      if (files.size > FILE_CACHE) files.delete(files.keys().next().value as string);
      return result;
    },
  };
}

export type ResultIndex = ReturnType<typeof createResultIndex>;

async function parse(path: string): Promise<ResultFile | null> {
  try {
    const v: unknown = JSON.parse(await readFile(path, 'utf8'));
    return looksLikeResult(v) ? v : null;
  } catch {
    return null;
  }
}

/** Same gate as readResultFiles, plus the fields the summary reads without checking. */
function looksLikeResult(v: unknown): v is ResultFile {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    typeof o.schema_version === 'string' &&
    typeof o.task_id === 'string' &&
    typeof o.model === 'string' &&
    typeof o.run_id === 'string' &&
    typeof o.started_at === 'string' &&
    typeof o.updated_at === 'string' &&
    typeof o.skills === 'object' &&
    o.skills !== null &&
    Array.isArray(o.trials)
  );
}

/** A foreign or older-schema file with missing fields is skipped, not fatal. */
function summarize(name: string, result: ResultFile): ResultSummary | null {
  try {
    return summarizeResult(name, result);
  } catch {
    return null;
  }
}
