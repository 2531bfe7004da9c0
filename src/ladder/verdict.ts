/**
 * The ladder's one-line answer. Built only from what discovery found: a part nobody reported (the
 * quantization, the parameter counts, the size) is left out, never guessed.
 */
import { formatBillions, formatSize } from './format.js';
import type { LadderModel } from './types.js';

/** `<suite> needs at least Q6_K of Qwen3-30B-A3B: 30B total, 3B active, 17.3 GiB`, or that none passes. */
export function verdictLine(suite: string, k: number, smallestPassing: LadderModel | null): string {
  if (smallestPassing === null) return `no model in the ladder passes ${suite} at pass^k (k=${k})`;
  const { info, size } = smallestPassing;
  const quant = info.quantization;
  const name = quant === null ? smallestPassing.label : withoutQuant(smallestPassing.label, quant);
  const facts = [
    info.parameters === null ? null : `${formatBillions(info.parameters)} total`,
    info.activeParameters === null ? null : `${formatBillions(info.activeParameters)} active`,
    size === null ? null : formatSize(size),
  ].filter((f) => f !== null);
  const what = quant === null ? name : `${quant} of ${name}`;
  return `${suite} needs at least ${what}${facts.length === 0 ? '' : `: ${facts.join(', ')}`}`;
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
