/** Where things live inside a results folder: the names every writer and reader share. */
import { posix } from 'node:path';
import { sha256 } from '../util/hash.js';

export const EVENTS_FILE = 'events.jsonl';

export function resultFileName(taskId: string, model: string, runId: string): string {
  return `${taskId}__${modelSlug(model)}__${runId}.json`;
}

/** A model name as a file-name part: readable, and distinct names stay distinct. */
export function modelSlug(model: string): string {
  const readable = model.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'model';
  return readable === model ? readable : `${readable}-${sha256(model).slice(0, 6)}`;
}

/** results/artifacts/<task>/<model slug>/trial-<n>, relative to the results folder. */
export function artifactsDir(taskId: string, model: string, trialIndex: number): string {
  return posix.join('artifacts', taskId, modelSlug(model), `trial-${trialIndex}`);
}
