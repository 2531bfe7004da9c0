/**
 * `--skill-ab`: does the skill earn its place? The same goal runs with the skill mounted (task
 * `<id>`) and without it (`<id>__noskill`: no folder, the prompt without any pointer to it), k
 * trials each, and this compares the two results files per model. The no-skill variant cannot be
 * held to the skill's procedure (reads and commands of files that are not there), so beside each
 * variant's own pass^k and score the table shows "goal pass^k": every outcome flag both variants
 * share reached and no tamper, the like-for-like question. Pure: it reads results, runs nothing.
 */
import { passHatK } from '../scoring/stats.js';
import { NO_SKILL_SUFFIX } from './skill-task.js';

/** The part of a results file the comparison reads (see src/run/result-file.ts). */
export interface AbResult {
  task_id: string;
  model: string;
  k: number;
  score: number;
  pass_hat_k: number | null;
  avg_turns: number;
  usage: { prompt_tokens: number; completion_tokens: number };
  skills: Record<string, { kind: 'process' | 'outcome' }>;
  skill_digest?: string;
  trials: readonly {
    passed: boolean;
    tamper_detected: boolean;
    flags: Record<string, { reached: boolean }>;
  }[];
}

interface AbSide {
  trials: number;
  passHatK: number | null;
  score: number;
  goalPassHatK: number | null;
  avgTurns: number;
  tokens: number;
}

export interface AbRow {
  taskId: string;
  model: string;
  withSkill: AbSide;
  withoutSkill: AbSide;
  /** Outcome flags both variants have, on which goal pass^k is judged. */
  goalFlags: string[];
  digest: string | null;
  /** Set when the two sides ran different versions of the skill. */
  mismatch: string | null;
}

export function compareAb(results: readonly AbResult[]): AbRow[] {
  const rows: AbRow[] = [];
  for (const on of results) {
    if (on.task_id.endsWith(NO_SKILL_SUFFIX)) continue;
    const off = results.find((r) => r.task_id === `${on.task_id}${NO_SKILL_SUFFIX}` && r.model === on.model);
    if (off === undefined) continue;
    const goalFlags = Object.keys(on.skills).filter(
      (id) => on.skills[id]?.kind === 'outcome' && off.skills[id]?.kind === 'outcome',
    );
    const mismatch =
      on.skill_digest === off.skill_digest
        ? null
        : `skill digests differ: ${on.skill_digest} vs ${off.skill_digest}`;
    rows.push({
      taskId: on.task_id,
      model: on.model,
      withSkill: side(on, goalFlags),
      withoutSkill: side(off, goalFlags),
      goalFlags,
      digest: on.skill_digest ?? null,
      mismatch,
    });
  }
  return rows;
}

function side(r: AbResult, goalFlags: readonly string[]): AbSide {
  const n = r.trials.length;
  const goal = r.trials.filter(
    (t) => !t.tamper_detected && goalFlags.every((id) => t.flags[id]?.reached === true),
  );
  return {
    trials: n,
    passHatK: r.pass_hat_k,
    score: r.score,
    goalPassHatK: n === 0 || goalFlags.length === 0 ? null : passHatK(n, goal.length, r.k),
    avgTurns: r.avg_turns,
    tokens: n === 0 ? 0 : Math.round((r.usage.prompt_tokens + r.usage.completion_tokens) / n),
  };
}

export function formatAb(rows: readonly AbRow[]): string {
  if (rows.length === 0) return 'skill A/B: no pair of results to compare';
  const num = (x: number | null, digits = 2): string => (x === null ? '-' : x.toFixed(digits));
  const delta = (a: number | null, b: number | null, digits = 2): string =>
    a === null || b === null ? '-' : `${a - b >= 0 ? '+' : ''}${(a - b).toFixed(digits)}`;
  const lines = ['skill A/B (with skill vs without; goal = the outcome flags both share)'];
  for (const r of rows) {
    const w = r.withSkill;
    const o = r.withoutSkill;
    lines.push(
      `\n${r.taskId} · ${r.model}${r.digest === null ? '' : ` · skill ${r.digest.slice(0, 19)}`}`,
      `  ${''.padEnd(13)}${'with'.padStart(9)}${'without'.padStart(9)}${'diff'.padStart(9)}`,
      row('pass^k', num(w.passHatK), num(o.passHatK), delta(w.passHatK, o.passHatK)),
      row('goal pass^k', num(w.goalPassHatK), num(o.goalPassHatK), delta(w.goalPassHatK, o.goalPassHatK)),
      row('score', num(w.score), num(o.score), delta(w.score, o.score)),
      row('turns', num(w.avgTurns, 1), num(o.avgTurns, 1), delta(w.avgTurns, o.avgTurns, 1)),
      row('tokens/trial', String(w.tokens), String(o.tokens), delta(w.tokens, o.tokens, 0)),
    );
    if (r.goalFlags.length === 0) lines.push('  (no outcome flag in common: goal pass^k cannot be compared)');
    if (r.mismatch !== null) lines.push(`  WARNING: ${r.mismatch}`);
  }
  return lines.join('\n');
}

function row(label: string, a: string, b: string, d: string): string {
  return `  ${label.padEnd(13)}${a.padStart(9)}${b.padStart(9)}${d.padStart(9)}`;
}
