/**
 * `agent-bench export atif RESULT_FILE`: a results file's trials as Harbor trajectories (ATIF,
 * src/report/atif.ts). `--trial N` prints that trial's trajectory; `--out DIR` writes every trial's
 * where Harbor keeps one, `DIR/<task>__<trial>/agent/trajectory.json`.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { trialTrajectory } from '../../report/atif.js';
import { readResultFile } from '../../results/store.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { UsageError } from '../../util/errors.js';

export interface ExportAtifOptions {
  trial?: number;
  out?: string;
}

interface Output {
  write(text: string): unknown;
}

export async function exportAtifCommand(
  file: string,
  o: ExportAtifOptions,
  out: Output = process.stdout,
): Promise<void> {
  if ((o.trial === undefined) === (o.out === undefined))
    throw new UsageError(
      'export atif needs either --trial N (print one trajectory) or --out DIR (write every trial)',
    );
  const parsed = await readResultFile(file);
  if (!parsed.ok) throw new UsageError(`${file}: ${parsed.reason}`);
  const result = parsed.result;
  if (o.trial !== undefined) {
    // Trials are numbered from 1 on the command line, as the CLI prints them (the file keeps 0-based indexes).
    const trial = result.trials.find((t) => t.index === (o.trial ?? 0) - 1);
    if (trial === undefined)
      throw new UsageError(
        `${file} has no trial ${o.trial}; its trials: ${result.trials.map((t) => t.index + 1).join(', ') || 'none'}`,
      );
    out.write(`${JSON.stringify(trialTrajectory(result, trial), null, 2)}\n`);
    return;
  }
  const dir = o.out ?? '';
  for (const trial of result.trials) {
    const at = join(dir, `${result.task_id}__${trial.index + 1}`, 'agent');
    await mkdir(at, { recursive: true });
    await writeFileAtomic(
      join(at, 'trajectory.json'),
      `${JSON.stringify(trialTrajectory(result, trial), null, 2)}\n`,
    );
  }
  out.write(`${result.trials.length} trajectories written under ${dir}\n`);
}
