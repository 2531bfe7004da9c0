/**
 * `agent-bench stats PATH...`: every trial of the results files (folders or single files) as one
 * long-form CSV line, and each file's summary fields recomputed from its trials: a summary that
 * disagrees is named, and the command exits 1 after writing the CSV.
 */

import { statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { loadResults } from '../../report/load.js';
import { summaryMismatches, trialsCsv } from '../../report/trial-csv.js';
import type { ResultFile } from '../../results/result-file.js';
import { readResultFile } from '../../results/store.js';
import { GateFailedError, UsageError } from '../../util/errors.js';

export interface StatsOptions {
  paths: string[];
  out?: string;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
}

export async function statsCommand(o: StatsOptions): Promise<void> {
  const stderr = o.stderr ?? process.stderr;
  const paths = o.paths.length === 0 ? ['results'] : o.paths;
  const files: { file: string; result: ResultFile }[] = [];
  for (const path of paths)
    files.push(...(await read(path, (line) => stderr.write(`agent-bench: ${line}\n`))));
  if (files.length === 0) throw new UsageError(`no results files in ${paths.join(', ')}`);
  const csv = trialsCsv(files);
  if (o.out === undefined) (o.stdout ?? process.stdout).write(csv);
  else {
    await writeFile(resolve(o.out), csv, 'utf8');
    stderr.write(
      `wrote ${resolve(o.out)} (${files.reduce((a, f) => a + f.result.trials.length, 0)} trials)\n`,
    );
  }
  const mismatches = files.flatMap((f) => summaryMismatches(f.file, f.result));
  for (const m of mismatches) stderr.write(`agent-bench: ${m}\n`);
  if (mismatches.length > 0)
    throw new GateFailedError(
      `${mismatches.length} summary figure(s) disagree with the trials they come from`,
    );
}

async function read(
  path: string,
  onSkipped: (line: string) => void,
): Promise<{ file: string; result: ResultFile }[]> {
  let isFile: boolean;
  try {
    isFile = statSync(path).isFile();
  } catch {
    throw new UsageError(`${path}: no such file or folder`);
  }
  if (!isFile)
    return loadResults(path, onSkipped).then((all) => all.map((l) => ({ file: l.file, result: l.result })));
  const parsed = await readResultFile(path);
  if (!parsed.ok) throw new UsageError(`${path}: ${parsed.reason}`);
  return [{ file: basename(path), result: parsed.result }];
}
