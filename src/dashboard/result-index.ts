/**
 * The dashboard's view of the results folder: a summary per results file (no transcripts), refreshed
 * incrementally (only files whose size or mtime changed are read again), plus a small cache of whole
 * files for the transcript routes.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type ResultSummary, summarizeResult } from '../report/summary.js';
import type { ResultFile } from '../results/result-file.js';
import { readResultFile } from '../results/store.js';

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
    // Dot files (.dashboard.json, .trash/) are the dashboard's own, never results.
    const names = (await readdir(dir).catch(() => [] as string[]))
      .filter((n) => n.endsWith('.json') && !n.startsWith('.'))
      .sort();
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
          summary: result === null ? null : summarizeResult(name, result),
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

    /** True for a results file the last scan read and parsed: the only names the dashboard acts on. */
    knows(name: string): boolean {
      return entries.get(name)?.summary != null;
    },

    /** Drops a file that was moved away, so it is gone before the next scan. */
    forget(name: string): void {
      entries.delete(name);
      files.delete(name);
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
  const parsed = await readResultFile(path);
  return parsed.ok ? parsed.result : null;
}
