/**
 * `validate --metamorphic`: the runs derived from a task's reference run (derive.ts), each run
 * through the task's sandbox like any other proof run, as rows `metamorphic:<id>`. A must-fail run
 * that passes is a surviving mutation (the row shows its diff); a must-pass run that fails is a
 * broken transform (the row names the flags it missed). Either makes the task unsound.
 */
import type { TrialRecord } from '../../results/trial.js';
import { METAMORPHIC_OPERATORS } from '../../tasks/metamorphic.js';
import type { Task } from '../../tasks/types.js';
import { errorMessage } from '../../util/errors.js';
import type { ValidationRow } from '../rows.js';
import { deriveRuns } from './derive.js';
import type { DerivedRun, ReferenceRun } from './types.js';

/** A derived script run as a trial of the task. */
type RunScript = (run: DerivedRun) => Promise<TrialRecord>;

export async function metamorphicRows(
  task: Task,
  ref: ReferenceRun,
  run: RunScript,
): Promise<ValidationRow[]> {
  const { runs, skipped, empty } = deriveRuns(ref, task.metamorphicSkips);
  const rows: ValidationRow[] = [];
  for (const s of skipped)
    rows.push({
      taskId: task.id,
      run: `metamorphic:${s.id}`,
      kind: 'skipped',
      detail: `does not apply: ${s.reason}`,
    });
  for (const operator of empty)
    rows.push({
      taskId: task.id,
      run: `metamorphic:${operator}`,
      kind: 'skipped',
      detail: 'nothing in the reference run to derive from',
    });
  for (const derived of runs) {
    const name = `metamorphic:${derived.id}`;
    try {
      const trial = await run(derived);
      const notApplied = trial.status === 'error' ? null : (derived.applied?.(trial) ?? null);
      if (notApplied !== null) {
        rows.push({ taskId: task.id, run: name, kind: 'skipped', detail: `did not apply: ${notApplied}` });
        continue;
      }
      let verdict = judgeDerived(derived, trial);
      if (verdict.kind === 'failed' && derived.without !== undefined) {
        // A survivor that faked what the task never needed is no hole: the trial passes without it too.
        const without = await run({ ...derived, script: derived.without });
        if (without.passed)
          verdict = { kind: 'passed', detail: 'not required: the trial passes without it too' };
      }
      rows.push({ taskId: task.id, run: name, ...verdict });
    } catch (err) {
      rows.push({ taskId: task.id, run: name, kind: 'error', detail: `harness error: ${errorMessage(err)}` });
    }
  }
  return rows;
}

/** A derived run's verdict: caught or survived (must-fail), passes or broken (must-pass). */
export function judgeDerived(
  derived: DerivedRun,
  t: TrialRecord,
): { kind: 'passed' | 'failed' | 'error'; detail: string; output?: string } {
  if (t.status === 'error')
    return {
      kind: 'error',
      detail: `not measured (${t.failure_reason ?? 'harness'}): ${derived.description}`,
    };
  const missed = Object.entries(t.flags)
    .filter(([, f]) => !f.reached)
    .map(([id]) => id);
  const why = [
    ...(missed.length === 0 ? [] : [`missed ${missed.join(', ')}`]),
    ...(t.tamper_detected ? ['tamper'] : []),
  ];
  if (METAMORPHIC_OPERATORS[derived.operator].family === 'must-fail') {
    if (!t.passed)
      return { kind: 'passed', detail: `caught (${why.join('; ') || t.failure_reason || 'failed'})` };
    return {
      kind: 'failed',
      detail: `survives: the trial passes with ${derived.description}`,
      ...(derived.diff === undefined ? {} : { output: derived.diff }),
    };
  }
  if (t.passed) return { kind: 'passed', detail: 'still passes' };
  return {
    kind: 'failed',
    detail: `breaks: ${derived.description} fails a correct session (${why.join('; ') || t.failure_reason || 'failed'})`,
  };
}
