/**
 * Where things live inside a results folder: the names every writer and reader share. Task ids and
 * model names are untrusted (a manifest, a server's model list), so every name made here is built
 * from file-name parts that cannot be `.`, `..`, hidden, empty, over-long or hold a separator: each
 * path stays inside the results folder whatever the id or name.
 */
import { posix } from 'node:path';
import { InternalError } from '../util/errors.js';
import { sha256 } from '../util/hash.js';
import { conditionKey, type RunCondition } from './condition.js';

export const EVENTS_FILE = 'events.jsonl';
export const ARTIFACTS_DIR = 'artifacts';

/** Long enough to read, short enough that three parts fit a 255-byte file name. */
const MAX_PART = 72;

/** A run writes one file per task and condition: a condition other than clean is named too. */
export function resultFileName(
  taskId: string,
  model: string,
  runId: string,
  condition?: RunCondition,
): string {
  return `${fileNamePart(taskId)}__${modelSlug(model)}__${fileNamePart(runId)}${conditionPart(condition, '__')}.json`;
}

/** `<sep><condition>` for a condition other than clean, else ''. */
function conditionPart(condition: RunCondition | undefined, sep: string): string {
  return condition === undefined || condition.name === 'clean'
    ? ''
    : `${sep}${fileNamePart(conditionKey(condition))}`;
}

/** A model name as a file-name part: readable, and distinct names stay distinct. */
export function modelSlug(model: string): string {
  return fileNamePart(model);
}

/**
 * Any text as one file-name part: letters, digits and `._-`, not starting with `.` or `-`, at most
 * MAX_PART characters. A text that is not already such a part gets a hash of itself appended, so
 * distinct texts stay distinct.
 */
export function fileNamePart(text: string): string {
  // Only the first characters can show; the hash covers the whole text. Bounding the input keeps
  // the replace linear in what is kept, however long a server's model name.
  const readable = trimEdges(text.slice(0, 4 * MAX_PART).replace(/[^A-Za-z0-9._-]+/g, '-'), '.-', '-') || 'x';
  if (readable === text && text.length <= MAX_PART) return text;
  return `${trimEdges(readable.slice(0, MAX_PART - 7), '', '.-')}-${sha256(text).slice(0, 6)}`;
}

/** Drops leading characters in `head` and trailing ones in `tail` (a loop: an anchored `-+$` backtracks). */
function trimEdges(text: string, head: string, tail: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && head.includes(text[start] as string)) start++;
  while (end > start && tail.includes(text[end - 1] as string)) end--;
  return text.slice(start, end);
}

/** results/artifacts/<task>/<model slug>[/<condition>]/trial-<n>, relative to the results folder. */
export function artifactsDir(
  taskId: string,
  model: string,
  trialIndex: number,
  condition?: RunCondition,
): string {
  if (!Number.isSafeInteger(trialIndex) || trialIndex < 0)
    throw new InternalError(`trial index ${trialIndex} is not a non-negative integer`);
  const under = conditionPart(condition, '');
  const trial = `trial-${trialIndex}`;
  return posix.join(
    ARTIFACTS_DIR,
    fileNamePart(taskId),
    modelSlug(model),
    ...(under === '' ? [] : [under]),
    trial,
  );
}
