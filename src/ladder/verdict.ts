/**
 * The ladder's one-line answer. Built only from what discovery found: a part nobody reported (the
 * quantization, the parameter counts, the size) is left out, never guessed.
 */
import { formatBytes } from '../discovery/models-table.js';
import { formatBillions, formatSize } from './format.js';
import { describeConfig } from './rung-config.js';
import { describeBound, percent, type SequentialEvidence, type SequentialRule } from './sequential-rule.js';
import type { LadderModel, Rung } from './types.js';

/** `<suite> needs at least Q6_K of Qwen3-30B-A3B: 30B total, 3B active, 17.3 GiB`, or that none passes. */
export function verdictLine(
  suite: string,
  k: number,
  smallestPassing: LadderModel | null,
  peak: string | null = null,
): string {
  if (smallestPassing === null) return `no model in the ladder passes ${suite} at pass^k (k=${k})`;
  return `${suite} needs at least ${describePassing(smallestPassing, peak)}`;
}

/**
 * The verdict over the rungs. A rung that was not measured (`error`: its server failed, its model
 * did not load) is never taken for a failure: below the first passing rung, or with none passing,
 * it leaves the question open, and the line says so instead of naming a smallest model.
 */
export function ladderVerdict(
  suite: string,
  k: number,
  rungs: readonly Pick<Rung, 'model' | 'status' | 'serverPeakRssBytes' | 'peakRssOf'>[],
): string {
  const first = rungs.findIndex((r) => r.status === 'passed');
  const below = first === -1 ? rungs : rungs.slice(0, first);
  const unmeasured = below.filter((r) => r.status === 'error').map((r) => r.model.label);
  const passing = rungs[first]?.model ?? null;
  const peak = peakSaid(rungs[first]);
  if (unmeasured.length === 0) return verdictLine(suite, k, passing, peak);
  const open = `no verdict on ${suite} at pass^k (k=${k}): ${unmeasured.join(', ')} not measured`;
  return passing === null
    ? `${open}, and no model measured passes`
    : `${open}; the smallest model measured to pass is ${describePassing(passing, peak)}`;
}

/**
 * `Q6_K of Qwen3-30B-A3B: 30B total, 3B active, 17.3 GiB`: only what discovery reported; a configured
 * rung adds its configuration (`Q6_K of beta-8b at ctx 8192, KV q8_0: …`) and a measured rung its
 * server's peak (`server peak 6.1 GiB`).
 */
function describePassing(model: LadderModel, peak: string | null = null): string {
  const { info, size, config } = model;
  const quant = info.quantization;
  const label = config?.fileLabel ?? model.label;
  const name = quant === null ? label : withoutQuant(label, quant);
  const facts = [
    info.parameters === null ? null : `${formatBillions(info.parameters)} total`,
    info.activeParameters === null ? null : `${formatBillions(info.activeParameters)} active`,
    size === null ? null : formatSize(size),
    peak,
  ].filter((f) => f !== null);
  const what = quant === null ? name : `${quant} of ${name}`;
  return `${what}${configSuffix(model)}${facts.length === 0 ? '' : `: ${facts.join(', ')}`}`;
}

/** ` at ctx 8192, KV q8_0`, or nothing for a rung that is a file only. */
function configSuffix(model: LadderModel): string {
  const said = model.config === undefined ? '' : describeConfig(model.config);
  return said === '' ? '' : ` at ${said}`;
}

/** A rung as the sequential verdict names it: `beta-8b-Q6_K at ctx 8192, KV q8_0`. */
function rungName(model: LadderModel): string {
  return `${model.config?.fileLabel ?? model.label}${configSuffix(model)}`;
}

/** `, server peak 6.1 GiB` when the rung's memory was measured. */
function peakNote(peak: string | null): string {
  return peak === null ? '' : `, ${peak}`;
}

/** `server peak 6.1 GiB`, `process peak 2.3 GiB` (an in-process model), or null when not measured. */
function peakSaid(rung: Pick<Rung, 'serverPeakRssBytes' | 'peakRssOf'> | undefined): string | null {
  const bytes = rung?.serverPeakRssBytes;
  if (bytes === undefined || bytes === null) return null;
  return `${rung?.peakRssOf === 'process' ? 'process' : 'server'} peak ${formatBytes(bytes)}`;
}

/** How the verdict names what was run: one task by its id, several as a suite. */
export function suiteLabel(taskIds: readonly string[], isWholeSuite: boolean): string {
  if (taskIds.length === 1 && taskIds[0] !== undefined) return taskIds[0];
  if (isWholeSuite) return `the full suite (${taskIds.length} tasks)`;
  return `the suite (${taskIds.join(', ')})`;
}

/** `small-3b-q4_K_M` -> `small-3b`: the quantization is said once, before the name. */
function withoutQuant(label: string, quant: string): string {
  const escaped = quant.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const stripped = label.replace(new RegExp(`[-_.:@ ]${escaped}(?=$|[-_.:@ ])`, 'i'), '');
  return stripped === '' ? label : stripped;
}

/** `passes: pass rate ≥ 0.81 at 90 % confidence, 11 trials`, likewise `fails`, `undecided at --max-k 30`. */
export function sequentialLine(e: SequentialEvidence, rule: SequentialRule): string {
  const said = e.decision === 'passed' ? 'passes' : e.decision === 'failed' ? 'fails' : 'undecided';
  const atMax = e.decision === 'undecided' ? ` at --max-k ${rule.maxK}` : '';
  const trials = `${e.measured} trial${e.measured === 1 ? '' : 's'}`;
  return `${said}${atMax}: ${describeBound(e)} at ${percent(rule.confidence)} confidence, ${trials}`;
}

/**
 * The sequential ladder's answer: the smallest rung whose bound shows it reaches the target, with
 * its bound. Rungs below it that were not decided (undecided at --max-k, or not measured) are named,
 * since any of them might pass too.
 */
export function sequentialVerdict(
  suite: string,
  rule: SequentialRule,
  rungs: readonly Pick<Rung, 'model' | 'status' | 'sequential' | 'serverPeakRssBytes' | 'peakRssOf'>[],
): string {
  const first = rungs.findIndex((r) => r.status === 'passed');
  const below = first === -1 ? rungs : rungs.slice(0, first);
  const open = below.flatMap((r) =>
    r.status === 'undecided'
      ? [`${r.model.label} (undecided at --max-k ${rule.maxK})`]
      : r.status === 'error'
        ? [`${r.model.label} (not measured)`]
        : [],
  );
  const passing = rungs[first];
  const target = `target ${rule.target}`;
  const head =
    passing?.sequential === undefined
      ? `no model in the ladder passes ${suite} at ${target} (${percent(rule.confidence)} confidence)`
      : `${rungName(passing.model)} passes: ${sequentialLine(passing.sequential, rule).replace(/^passes: /, '')}${peakNote(peakSaid(passing))}; the smallest model to pass ${suite} at ${target}`;
  if (open.length === 0) return head;
  return `${head}; not decided${passing === undefined ? '' : ' below it'}: ${open.join(', ')}`;
}
