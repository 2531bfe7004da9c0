/**
 * `validate` for Harbor tasks, Harbor's own sanity gate: the oracle (solution/solve.sh) must earn a
 * reward of 1 and doing nothing a reward of 0, each in a fresh container of the task's image. A
 * verifier that writes no readable reward fails the row with what it wrote: a broken task, not a
 * model's failure. Every failed row keeps the end of what solve.sh and test.sh printed, and names
 * the offline signatures found there (offline-signatures.ts). A task that cannot be loaded is one
 * failed row, and one whose image cannot be had one row of its own (the engine's or the build's
 * line): the other tasks are proven all the same.
 */
import { openHarborEnvironment } from '../../../sandbox/index.js';
import type { HarborTrialResult } from '../../../sandbox/types.js';
import { errorMessage, InfraError, UsageError } from '../../../util/errors.js';
import { harborEnvironmentSpec } from './environment.js';
import type { HarborTask } from './load.js';
import { offlineSignatures } from './offline-signatures.js';
import type { UnusableHarborTask } from './unusable.js';
import { rewardPasses, rewardText } from './verify.js';

/** One row of validate's table (the same shape as src/validate's ValidationRow): error is an engine's failure. */
interface HarborValidationRow {
  taskId: string;
  run: string;
  kind: 'passed' | 'failed' | 'error';
  detail: string;
  /** A failed row's scripts' output (solve.sh's, test.sh's), their ends. */
  output?: string;
}

/** A trial's verdict, and what its scripts printed when it is a failure. */
interface Judged {
  ok: boolean;
  detail: string;
  output?: string;
}

export interface ProveHarborOptions {
  baseImage?: string;
  onProgress?: (line: string) => void;
  onRow?: (row: HarborValidationRow) => void;
}

export async function proveHarborTasks(
  tasks: readonly (HarborTask | UnusableHarborTask)[],
  o: ProveHarborOptions = {},
): Promise<HarborValidationRow[]> {
  const rows: HarborValidationRow[] = [];
  const add = (row: HarborValidationRow): void => {
    rows.push(row);
    o.onRow?.(row);
  };
  for (const task of tasks) {
    if ('problem' in task) {
      add({ taskId: task.id, run: 'load', kind: 'failed', detail: task.problem.split('\n').join('; ') });
      continue;
    }
    const environment = openHarborEnvironment(harborEnvironmentSpec(task, o.baseImage));
    const image = await guarded(task.id, 'image', async () => {
      try {
        await environment.taskImage(o.onProgress);
        return { ok: true, detail: 'built' };
      } catch (err) {
        // A Dockerfile that does not build (or uses syntax refused by name) is the task's problem.
        if (err instanceof UsageError) return { ok: false, detail: withSignatures(errorMessage(err)) };
        throw err;
      }
    });
    if (image.kind !== 'passed') {
      add({ ...image, detail: image.detail.replace(/^harness error: /, 'no image: ') });
      continue;
    }
    const labels = { run: 'validate', task: task.id };
    if (!task.hasSolution)
      add({
        taskId: task.id,
        run: 'oracle',
        kind: 'failed',
        detail: 'no solution/solve.sh: nothing proves it solvable',
      });
    else
      add(
        await guarded(task.id, 'oracle', async () =>
          judgeOracle(await environment.runTrial('oracle', labels)),
        ),
      );
    add(
      await guarded(task.id, 'do-nothing', async () =>
        judgeNothing(await environment.runTrial('nothing', labels)),
      ),
    );
  }
  return rows;
}

async function guarded(
  taskId: string,
  run: string,
  judge: () => Promise<Judged>,
): Promise<HarborValidationRow> {
  try {
    const { ok, detail, output } = await judge();
    return {
      taskId,
      run,
      kind: ok ? 'passed' : 'failed',
      detail,
      ...(output === undefined ? {} : { output }),
    };
  } catch (err) {
    if (!(err instanceof InfraError)) throw err;
    return { taskId, run, kind: 'error', detail: `harness error: ${errorMessage(err)}` };
  }
}

function verifierTrouble({ verifier: v }: HarborTrialResult): string | null {
  if (v.timedOut) return 'tests/test.sh ran out of time (task.toml verifier.timeout_sec)';
  if (!v.reward.ok)
    return `${v.reward.problem} (test.sh exit ${v.exitCode ?? 'none'}${v.output === '' ? '' : `: ${oneLine(v.output)}`})`;
  return null;
}

export function judgeOracle(t: HarborTrialResult): Judged {
  const trouble = verifierTrouble(t);
  if (trouble !== null) return failed(t, `reference solution unproven: ${trouble}`);
  const { reward: r } = t.verifier;
  if (r.ok && rewardPasses(r.reward)) return { ok: true, detail: 'passes (reward 1)' };
  const reward = r.ok ? rewardText(r) : 0;
  const exit = t.agentExit === 0 ? '' : `; solve.sh exit ${t.agentExit ?? 'none (timed out)'}`;
  return failed(t, `reference solution fails: reward ${reward}${exit}`);
}

export function judgeNothing(t: HarborTrialResult): Judged {
  const trouble = verifierTrouble(t);
  if (trouble !== null) return failed(t, `doing nothing unproven: ${trouble}`);
  const { reward: r } = t.verifier;
  const reward = r.ok ? r.reward : 0;
  if (reward === 0) return { ok: true, detail: 'scores 0' };
  return failed(t, `doing nothing scores ${r.ok ? rewardText(r) : reward}`);
}

/** A line with the offline signatures it shows named at its end. */
function withSignatures(line: string): string {
  const signs = offlineSignatures(line);
  return signs.length === 0 ? line : `${line} (offline? ${signs.join('; ')})`;
}

/** A failed row: the offline signatures its scripts' output shows named in its detail, the output kept. */
function failed(t: HarborTrialResult, detail: string): Judged {
  const signs = offlineSignatures(`${t.agentOutput}\n${t.verifier.output}`);
  const parts = [
    ...(t.agentOutput === '' ? [] : [`solve.sh printed (its end):\n${t.agentOutput}`]),
    ...(t.verifier.output === ''
      ? []
      : [`tests/test.sh printed (exit ${t.verifier.exitCode ?? 'none'}; its end):\n${t.verifier.output}`]),
  ];
  return {
    ok: false,
    detail: signs.length === 0 ? detail : `${detail} (offline? ${signs.join('; ')})`,
    ...(parts.length === 0 ? {} : { output: parts.join('\n') }),
  };
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= 160 ? line : `...${line.slice(-157)}`;
}
