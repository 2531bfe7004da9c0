/**
 * `agent-bench gate --baseline DIR --candidate DIR`: exit 1 when the candidate regressed beyond the
 * noise (report/gate.ts says what that is), 0 when nothing did, 2 for bad usage (a folder without
 * results, two models where one was meant, nothing the two have in common).
 */

import { type GateOn, gateResults } from '../../report/gate.js';
import { loadResults } from '../../report/load.js';
import { isBaseline } from '../../results/baseline-models.js';
import type { ResultFile } from '../../results/result-file.js';
import {
  resolveModelName,
  shortModelName,
  shortModelNames,
  sortedShortNames,
} from '../../results/short-model-name.js';
import { GateFailedError, UsageError } from '../../util/errors.js';
import { readableResultsDir } from '../results-dir.js';

export interface GateOptions {
  baseline: string;
  candidate: string;
  baselineModel?: string;
  candidateModel?: string;
  /** Allowed relative rise of a cost per trial (0.1: 10 %). */
  costTolerance: number;
  /** The cost gated: tokens (default), or tokens and the model's or the harness's time. */
  gateOn?: GateOn;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
}

export async function gateCommand(o: GateOptions): Promise<void> {
  const stdout = o.stdout ?? process.stdout;
  const stderr = o.stderr ?? process.stderr;
  const baseline = await oneModel('--baseline', o.baseline, o.baselineModel, stderr);
  const candidate = await oneModel('--candidate', o.candidate, o.candidateModel, stderr);
  const verdict = gateResults(baseline.results, candidate.results, o.costTolerance, o.gateOn);
  if (verdict.checked.length === 0)
    throw new UsageError(
      `nothing to compare: ${shortModelName(baseline.model)} (${o.baseline}) and ${shortModelName(candidate.model)} (${o.candidate}) share no task under any condition`,
    );
  const names = shortModelNames([baseline.model, candidate.model]);
  const [b, c] = [baseline.model, candidate.model].map((m) => names.get(m) ?? m);
  stdout.write(`gate: ${c} (${o.candidate}) against ${b} (${o.baseline})\n`);
  for (const line of verdict.checked) stdout.write(`  ${line}\n`);
  for (const note of verdict.notes) stdout.write(`  note: ${note}\n`);
  if (verdict.regressions.length > 0) {
    for (const r of verdict.regressions) stdout.write(`REGRESSION ${r}\n`);
    throw new GateFailedError(`${verdict.regressions.length} regression(s) beyond the noise`);
  }
  stdout.write('gate: no regression beyond the noise\n');
}

/** The results of the one model in dir (or the one named); scripted baselines do not count as candidates. */
async function oneModel(
  flag: string,
  dir: string,
  model: string | undefined,
  stderr: NodeJS.WritableStream,
): Promise<{ model: string; results: ResultFile[] }> {
  const loaded = await loadResults(readableResultsDir(dir), (line) => stderr.write(`agent-bench: ${line}\n`));
  const results = loaded.map((l) => l.result);
  if (results.length === 0) throw new UsageError(`${flag} ${dir}: no results files`);
  const all = results.map((r) => r.model);
  if (model !== undefined) {
    const chosen = resolveModelName(model, all, ` in ${flag} ${dir}`);
    return { model: chosen, results: results.filter((r) => r.model === chosen) };
  }
  const models = [...new Set(all)].filter((m) => !isBaseline(m));
  const only = models.length === 1 ? models[0] : undefined;
  if (only === undefined)
    throw new UsageError(
      `${flag} ${dir} holds ${models.length === 0 ? 'only baselines' : `several models (${sortedShortNames(models).join(', ')})`}: name one with ${flag}-model`,
    );
  return { model: only, results: results.filter((r) => r.model === only) };
}
