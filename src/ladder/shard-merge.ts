/**
 * A ladder split with --shard, brought together: each shard ran its share of every rung (shard
 * ladders do not stop, since no shard sees whether the others passed), so each rung's results are
 * the merged results of its model, and its outcome and the verdict are computed from them with the
 * rules a ladder on one machine uses (stop-rule.ts, verdict.ts). The ladder's verdict is its smallest
 * passing rung, and every rung was measured, so it is the verdict the ladder on one machine reaches,
 * whether that one stopped there or ran on.
 */
import { readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { ShardFile } from '../results/merge-read.js';
import type { ResultFile } from '../results/result-file.js';
import { mergedRunId } from '../run/shard-merge.js';
import { rungOutcome } from './stop-rule.js';
import { type LadderSummary, ladderSummary } from './summary-file.js';
import { readLadderSummary } from './summary-schema.js';
import { ladderTable } from './table.js';
import type { LadderModel, Rung } from './types.js';
import { ladderVerdict } from './verdict.js';

export interface LadderPart {
  path: string;
  summary: LadderSummary;
  shard: NonNullable<LadderSummary['shard']>;
}

type RungSummary = LadderSummary['rungs'][number];

/** The shard ladders of `group` in the folders (`ladder-*.json`); unreadable ones are said. */
export async function readLadderParts(
  dirs: readonly string[],
  group: string,
): Promise<{ parts: LadderPart[]; skipped: string[] }> {
  const parts: LadderPart[] = [];
  const skipped: string[] = [];
  for (const dir of dirs) {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isFile() || !/^ladder-.+\.json$/.test(entry.name)) continue;
      const path = join(dir, entry.name);
      const parsed = await readLadderSummary(path);
      if (!parsed.ok) skipped.push(`skipped ${path}: ${parsed.reason}`);
      else if (parsed.summary.shard?.group === group)
        parts.push({ path, summary: parsed.summary, shard: parsed.summary.shard });
    }
  }
  return { parts: parts.sort((a, b) => a.shard.index - b.shard.index), skipped };
}

/** Every reason the shard ladders cannot be merged with each other and with the results files. */
export function ladderRefusals(parts: readonly LadderPart[], files: readonly ShardFile[]): string[] {
  const refusals: string[] = [];
  const count = files[0]?.shard.count;
  for (const p of parts) {
    if (p.shard.count !== count)
      refusals.push(`${name(p)} is a ladder of ${p.shard.count} shards, the results files of ${count}`);
  }
  const [first, ...rest] = parts;
  if (first === undefined) return refusals;
  const shape = (s: LadderSummary): string =>
    `suite ${s.suite}, tasks ${s.tasks.join(',')}, k=${s.k}${s.early_stop ? ', early stop' : ''}`;
  const rungs = (s: LadderSummary): string => s.rungs.map((r) => r.model).join(', ');
  for (const p of rest) {
    if (shape(p.summary) !== shape(first.summary))
      refusals.push(
        `other ladders: ${shape(first.summary)} (${name(first)}) vs ${shape(p.summary)} (${name(p)})`,
      );
    else if (rungs(p.summary) !== rungs(first.summary))
      refusals.push(
        `other ladders: rungs ${rungs(first.summary)} (${name(first)}) vs rungs ${rungs(p.summary)} (${name(p)}): every machine must offer the same models`,
      );
    if (p.shard.index === parts[parts.indexOf(p) - 1]?.shard.index)
      refusals.push(
        `shard ${p.shard.index}/${p.shard.count} ran the ladder more than once (${name(p)}): keep one`,
      );
  }
  for (const [i, rung] of first.summary.rungs.entries()) {
    const named = parts.flatMap((p) => {
      const m = p.summary.rungs[i]?.results_model;
      return m === null || m === undefined ? [] : [{ m, p }];
    });
    const other = named.find((n) => n.m !== named[0]?.m);
    if (other !== undefined && named[0] !== undefined)
      refusals.push(
        `rung ${rung.model} ran as model ${named[0].m} (${name(named[0].p)}) and ${other.m} (${name(other.p)}): serve it under one name on every machine`,
      );
  }
  return refusals;
}

export interface MergedLadder {
  summary: LadderSummary;
  rungs: Rung[];
  verdict: string;
  table: string;
}

/** The ladder over the merged results (`results`: every merged file of the run). */
export function mergeLadder(
  parts: readonly LadderPart[],
  results: readonly ResultFile[],
): MergedLadder | null {
  const [first] = parts;
  if (first === undefined) return null;
  const { summary } = first;
  const rungs: Rung[] = summary.rungs.map((rung, i) => {
    const model = parts
      .map((p) => p.summary.rungs[i]?.results_model)
      .find((m) => m !== null && m !== undefined);
    const own = model === undefined ? [] : results.filter((r) => r.model === model);
    const errors = parts.flatMap((p) => {
      const e = p.summary.rungs[i]?.error;
      return e === null || e === undefined ? [] : [`shard ${p.shard.index}/${p.shard.count}: ${e}`];
    });
    return {
      model: ladderModel(rung, summary.source),
      status: rungOutcome(summary.tasks, own),
      results: own,
      error: errors.length === 0 ? null : errors.join('; '),
      serverLog: null,
    };
  });
  const verdict = ladderVerdict(summary.suite, summary.k, rungs);
  const merged = ladderSummary(
    {
      schema: summary.schema,
      run_id: mergedRunId(
        parts.map((p) => p.summary.started_at),
        parts.map((p) => `${p.shard.index}:${p.summary.run_id}`),
      ),
      suite: summary.suite,
      tasks: summary.tasks,
      k: summary.k,
      early_stop: summary.early_stop,
      exhaustive: true,
      source: summary.source,
      started_at: parts.map((p) => p.summary.started_at).sort()[0] ?? summary.started_at,
      merged: {
        group: first.shard.group,
        count: first.shard.count,
        parts: parts.map((p) => ({ shard: p.shard.index, run_id: p.summary.run_id })),
      },
    },
    rungs,
    parts.every((p) => p.summary.status === 'complete') ? 'complete' : 'interrupted',
    verdict,
  );
  return { summary: merged, rungs, verdict, table: ladderTable(rungs, summary.tasks) };
}

/** The rung's model as discovery described it, from what the summary kept of that (the rest unknown). */
function ladderModel(rung: RungSummary, source: LadderSummary['source']): LadderModel {
  return {
    id: rung.model_id,
    label: rung.model,
    info: {
      name: rung.model_id,
      kind: 'gguf_dir' in source ? 'gguf-file' : 'openai-compatible',
      family: rung.family,
      parameters: rung.parameters_b,
      activeParameters: rung.active_parameters_b,
      effectiveParameters: null,
      quantization: rung.quantization,
      weightBytes: rung.size_bytes,
      weightSource: rung.size_source,
      contextLength: null,
      toolSupport: null,
      sources: { parameters: null, quantization: null, contextLength: null },
    },
    size:
      rung.size_bytes === null ? null : { bytes: rung.size_bytes, source: rung.size_source ?? 'estimate' },
  };
}

function name(p: LadderPart): string {
  return basename(p.path);
}
