/**
 * `validate` for Harbor tasks, Harbor's own sanity gate: the oracle (solution/solve.sh) must earn a
 * reward of 1 and doing nothing a reward of 0, each in a fresh container of the task's image. A
 * verifier that writes no readable reward fails the row with what it wrote: a broken task, not a
 * model's failure. Engine and build failures are not rows: they stop validate with their one line.
 */
import type Docker from 'dockerode';
import { errorMessage, InfraError } from '../../../util/errors.js';
import { ensureHarborImage } from './image.js';
import type { HarborTask } from './load.js';
import { rewardPasses } from './reward.js';
import { type HarborTrialResult, runHarborTrial } from './trial.js';

/** One row of validate's table (the same shape as src/validate's ValidationRow): error is an engine's failure. */
interface HarborValidationRow {
  taskId: string;
  run: string;
  kind: 'passed' | 'failed' | 'error';
  detail: string;
}

export interface ProveHarborOptions {
  baseImage?: string;
  onProgress?: (line: string) => void;
  onRow?: (row: HarborValidationRow) => void;
}

export async function proveHarborTasks(
  client: Docker,
  tasks: readonly HarborTask[],
  o: ProveHarborOptions = {},
): Promise<HarborValidationRow[]> {
  const rows: HarborValidationRow[] = [];
  const add = (row: HarborValidationRow): void => {
    rows.push(row);
    o.onRow?.(row);
  };
  for (const task of tasks) {
    const image = await ensureHarborImage(client, task, {
      ...(o.baseImage === undefined ? {} : { baseImage: o.baseImage }),
      ...(o.onProgress === undefined ? {} : { onProgress: o.onProgress }),
    });
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
          judgeOracle(await runHarborTrial(client, task, image, 'oracle', labels)),
        ),
      );
    add(
      await guarded(task.id, 'do-nothing', async () =>
        judgeNothing(await runHarborTrial(client, task, image, 'nothing', labels)),
      ),
    );
  }
  return rows;
}

async function guarded(
  taskId: string,
  run: string,
  judge: () => Promise<{ ok: boolean; detail: string }>,
): Promise<HarborValidationRow> {
  try {
    const { ok, detail } = await judge();
    return { taskId, run, kind: ok ? 'passed' : 'failed', detail };
  } catch (err) {
    if (!(err instanceof InfraError)) throw err;
    return { taskId, run, kind: 'error', detail: `harness error: ${errorMessage(err)}` };
  }
}

function verifierTrouble(t: HarborTrialResult): string | null {
  if (t.verifierTimedOut) return 'tests/test.sh ran out of time (task.toml verifier.timeout_sec)';
  if (!t.reward.ok)
    return `${t.reward.problem} (test.sh exit ${t.verifierExit ?? 'none'}${t.verifierOutput === '' ? '' : `: ${oneLine(t.verifierOutput)}`})`;
  return null;
}

export function judgeOracle(t: HarborTrialResult): { ok: boolean; detail: string } {
  const trouble = verifierTrouble(t);
  if (trouble !== null) return { ok: false, detail: `reference solution unproven: ${trouble}` };
  if (t.reward.ok && rewardPasses(t.reward.reward)) return { ok: true, detail: 'passes (reward 1)' };
  const reward = t.reward.ok ? t.reward.reward : 0;
  const exit = t.agentExit === 0 ? '' : `; solve.sh exit ${t.agentExit ?? 'none (timed out)'}`;
  return { ok: false, detail: `reference solution fails: reward ${reward}${exit}` };
}

export function judgeNothing(t: HarborTrialResult): { ok: boolean; detail: string } {
  const trouble = verifierTrouble(t);
  if (trouble !== null) return { ok: false, detail: `doing nothing unproven: ${trouble}` };
  const reward = t.reward.ok ? t.reward.reward : 0;
  if (reward === 0) return { ok: true, detail: 'scores 0' };
  return { ok: false, detail: `doing nothing scores ${reward}` };
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= 160 ? line : `...${line.slice(-157)}`;
}
