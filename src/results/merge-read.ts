/**
 * The shard files a merge takes from its folders: results files written by a run with --shard (of
 * one run group when asked), each parsed once through the results schema. Anything else in the
 * folders is left out and said: unreadable files one by one (they may be a shard's), other results
 * by count (a shared results folder holds many).
 */
import type { ResultFile, ShardRecord } from './result-file.js';
import { describeProblem, readResultFiles } from './store.js';

export interface ShardFile {
  path: string;
  result: ResultFile;
  shard: ShardRecord;
}

export interface ShardFiles {
  files: ShardFile[];
  /** One line per file or kind of file left out, and why. */
  skipped: string[];
}

export async function readShardFiles(dirs: readonly string[], group?: string): Promise<ShardFiles> {
  const files: ShardFile[] = [];
  const skipped: string[] = [];
  let notShards = 0;
  let otherGroups = 0;
  for (const dir of dirs) {
    const { results, problems } = await readResultFiles(dir);
    skipped.push(...problems.map(describeProblem));
    for (const { path, result } of results) {
      const { shard } = result;
      if (shard === undefined) notShards++;
      else if (group !== undefined && shard.group !== group) otherGroups++;
      else files.push({ path, result, shard });
    }
  }
  if (notShards > 0)
    skipped.push(
      `left out ${notShards} results file(s) that no run with --shard wrote (merged or single-machine results)`,
    );
  if (otherGroups > 0) skipped.push(`left out ${otherGroups} shard file(s) of other runs than ${group}`);
  return { files, skipped };
}
