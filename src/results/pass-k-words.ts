/**
 * A task's pass^k in words true to what was measured: an interrupted task says how far it got, a
 * task none of whose trials was measured says so, and neither is called a FAIL.
 */
import type { ResultFile } from './result-file.js';

type Counted = Pick<ResultFile, 'status' | 'k' | 'pass_all_k' | 'early_stopped'> & {
  trials: readonly { passed: boolean; status: string }[];
};

/** `PASS (k=3)`, `FAIL (1/3 passed of k=3)`, `INTERRUPTED after 2 of 3 trials (2 passed)`, `ERROR: no trial measured`. */
export function passKWords(r: Counted): string {
  const ran = r.trials.length;
  const passed = r.trials.filter((t) => t.passed).length;
  const errors = r.trials.filter((t) => t.status === 'error').length;
  const measured = ran - errors;
  const unmeasured = errors > 0 ? `, ${errors} not measured` : '';
  if (r.pass_all_k) return `PASS (k=${r.k})`;
  const failedOne = r.trials.some((t) => t.status === 'failed');
  // One measured failure decides pass^k, however the rest ended.
  if (failedOne)
    return `FAIL (${passed}/${measured} passed of k=${r.k}${r.early_stopped ? ', early-stopped' : ''}${unmeasured})`;
  if (r.status === 'interrupted' || r.status === 'running') {
    const word = r.status === 'running' ? 'RUNNING' : 'INTERRUPTED';
    if (ran === 0) return `${word} before any trial`;
    return `${word} after ${ran} of ${r.k} trials (${passed} passed${unmeasured})`;
  }
  if (measured === 0)
    return ran === 0 ? 'ERROR: no trial run' : `ERROR: no trial measured (${errors} of ${r.k} not measured)`;
  return `ERROR: ${measured} of ${r.k} trials measured (${passed} passed${unmeasured})`;
}
