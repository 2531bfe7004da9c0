/**
 * `agent-bench results merge DIR... --into DIR`: the shards of a run split with --shard, brought back
 * into the results one machine would have written (and, for a ladder, its table and verdict). Files
 * that do not belong together are refused, each reason on its own line, and nothing is written; a
 * shard that did not deliver its share is written as a gap and ends the command with exit 3.
 */
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ladderRefusals, mergeLadder, readLadderParts } from '../../ladder/shard-merge.js';
import { writeLadderSummary } from '../../ladder/summary-file.js';
import { copyArtifacts } from '../../results/merge-artifacts.js';
import { mergeRefusals } from '../../results/merge-check.js';
import { readShardFiles } from '../../results/merge-read.js';
import { writeResultFile } from '../../results/store.js';
import { mergeShardFiles } from '../../run/shard-merge.js';
import { parseRunGroup } from '../../run/shard-plan.js';
import { formatSummary, unmeasuredNote } from '../../run/summary.js';
import { InfraError, UsageError } from '../../util/errors.js';
import { writableResultsDir } from '../results-dir.js';

export interface MergeCliOptions {
  into: string;
  /** Merge only the shards of this run group. */
  runGroup?: string;
}

interface Output {
  write(text: string): unknown;
}

export async function resultsMergeCommand(
  dirs: readonly string[],
  o: MergeCliOptions,
  io: { stdout: Output; stderr: Output } = { stdout: process.stdout, stderr: process.stderr },
): Promise<void> {
  const say = (line: string): void => void io.stderr.write(`${line}\n`);
  const sources = dirs.map(shardFolder);
  const group = o.runGroup === undefined ? undefined : parseRunGroup(o.runGroup);
  const into = writableResultsDir(o.into, '--into');

  const read = await readShardFiles(sources, group);
  for (const line of read.skipped) say(line);
  const [first] = read.files;
  if (first === undefined)
    throw new UsageError(
      `no shard results in ${dirs.join(', ')}${group === undefined ? '' : ` of run ${group}`}: merge takes the folders of runs with --shard i/N`,
    );
  const ladders = await readLadderParts(sources, first.shard.group);
  for (const line of ladders.skipped) say(line);
  const refusals = [...mergeRefusals(read.files), ...ladderRefusals(ladders.parts, read.files)];
  if (refusals.length > 0) {
    for (const reason of refusals) say(`refused: ${reason}`);
    const more = refusals.length > 1 ? ` (and ${refusals.length - 1} more, above)` : '';
    throw new UsageError(`refusing to merge, nothing written: ${refusals[0]}${more}`);
  }

  const merge = mergeShardFiles(read.files);
  for (const cell of merge.cells) {
    await writeResultFile(into, cell.result);
    for (const part of cell.parts)
      for (const line of await copyArtifacts(part.result, dirname(part.path), into)) say(`skipped ${line}`);
  }
  const results = merge.cells.map((c) => c.result);
  say(
    `merged ${read.files.length} shard file(s) of run ${first.shard.group} (${first.shard.count} shards) into ${into}: ${results.length} results file(s)`,
  );
  io.stdout.write(`${formatSummary(results)}\n`);
  const ladder = mergeLadder(ladders.parts, results);
  if (ladder !== null) {
    const path = await writeLadderSummary(into, ladder.summary);
    io.stdout.write(`\n${ladder.table}\n\n${ladder.verdict}\n`);
    say(`ladder summary: ${path}`);
  }

  const gaps = [...merge.cells.flatMap((c) => c.gaps), ...merge.absent];
  for (const gap of gaps) say(`not whole: ${gap}`);
  if (gaps.length > 0) {
    const more = gaps.length > 1 ? ` (and ${gaps.length - 1} more, above)` : '';
    throw new InfraError(
      `the merged results are not whole: ${gaps[0]}${more}; run what is missing (--resume continues a shard) and merge again`,
    );
  }
  const unmeasured = unmeasuredNote(results);
  if (unmeasured !== null) throw new InfraError(unmeasured);
}

/** A folder named to merge must be there: a typo is not an empty shard. */
function shardFolder(dir: string): string {
  const abs = resolve(dir);
  let isFolder: boolean;
  try {
    isFolder = statSync(abs).isDirectory();
  } catch (err) {
    throw new UsageError(`${dir}: cannot read it (${(err as NodeJS.ErrnoException).code ?? err})`);
  }
  if (!isFolder) throw new UsageError(`${dir} is not a folder`);
  return abs;
}
