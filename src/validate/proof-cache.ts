/**
 * Proofs of tasks found sound, kept outside the clone (AGENT_BENCH_CACHE/proofs, default
 * ~/.cache/agent-bench/proofs) so an unchanged task is not proven again. One file per key; only a
 * proof whose every row passed is kept. An entry is trusted only when it parses, is of this format,
 * and names the key and task it is looked up for; anything else (a half-written file, another
 * version's entry, a file copied under another name) is ignored with a note and the task re-proven.
 */
import { readFile } from 'node:fs/promises';

import { join } from 'node:path';
import { z } from 'zod';
import type { Task } from '../tasks/types.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { cacheRoot } from '../util/cache-dir.js';
import { errorMessage } from '../util/errors.js';
import { PROOF_FORMAT } from './proof-key.js';
import { SHORT_KEY, type ValidationRow } from './rows.js';

const ProofEntry = z.object({
  format: z.literal(PROOF_FORMAT),
  key: z.string(),
  taskId: z.string(),
  provedAt: z.iso.datetime(),
  rows: z.array(z.object({ run: z.string(), detail: z.string() })).min(1),
});
type ProofEntry = z.infer<typeof ProofEntry>;

/** Where proofs are kept: $AGENT_BENCH_CACHE/proofs, else ~/.cache/agent-bench/proofs. */
export function defaultProofDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheRoot(env), 'proofs');
}

export interface ProofCache {
  /** The task's proof as cached rows, or null (none, or one not to be trusted: noted). */
  load(task: Task, key: string): Promise<ValidationRow[] | null>;
  /** Keeps the proof when every row passed; a proof with any other row is never kept. */
  save(task: Task, key: string, rows: readonly ValidationRow[]): Promise<void>;
}

export interface ProofCacheOptions {
  dir: string;
  /** Why an entry was ignored or could not be written. */
  onNote?: (line: string) => void;
  now?: () => Date;
}

export function openProofCache(o: ProofCacheOptions): ProofCache {
  const note = o.onNote ?? (() => {});
  const now = o.now ?? (() => new Date());
  const file = (key: string): string => join(o.dir, `${key}.json`);
  return {
    async load(task, key) {
      let text: string;
      try {
        text = await readFile(file(key), 'utf8');
      } catch {
        return null;
      }
      const checked = trustedEntry(text, key, task.id);
      if ('problem' in checked) {
        note(
          `note: ${task.id}: ignored the cached proof ${file(key)} (${checked.problem}); proving it again`,
        );
        return null;
      }
      const { entry } = checked;
      return entry.rows.map((r) => ({
        taskId: task.id,
        run: r.run,
        kind: 'cached',
        detail: r.detail,
        proof: { key, provedAt: entry.provedAt },
      }));
    },
    async save(task, key, rows) {
      if (rows.length === 0 || rows.some((r) => r.kind !== 'passed' && r.kind !== 'skipped')) return;
      const entry: ProofEntry = {
        format: PROOF_FORMAT,
        key,
        taskId: task.id,
        provedAt: now().toISOString(),
        rows: rows.map((r) => ({ run: r.run, detail: r.detail })),
      };
      try {
        await writeFileAtomic(file(key), `${JSON.stringify(entry, null, 2)}\n`);
      } catch (err) {
        // A cache that cannot be written costs time next run, never a verdict.
        note(`note: ${task.id}: could not cache its proof in ${o.dir} (${errorMessage(err)})`);
      }
    },
  };
}

/** The entry, or why it cannot be trusted. */
function trustedEntry(
  text: string,
  key: string,
  taskId: string,
): { entry: ProofEntry } | { problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { problem: 'not JSON: a damaged file' };
  }
  const parsed = ProofEntry.safeParse(json);
  if (!parsed.success) return { problem: `not an entry of format ${PROOF_FORMAT}` };
  const entry = parsed.data;
  if (entry.key !== key || entry.taskId !== taskId)
    return { problem: `it holds the proof of ${entry.taskId} under key ${entry.key.slice(0, SHORT_KEY)}` };
  return { entry };
}
