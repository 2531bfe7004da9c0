/**
 * `not_copy_of`: how much of a reference file an artifact keeps, by what the two say. Both are read
 * as visible text (visible-text.ts: a page's text, not its markup or styles), cut into words (letters
 * and digits, case-folded; `10,000` and `24.1` are one word each) and into every run of SHINGLE
 * consecutive words. The similarity is the share of the reference's runs that the artifact also has
 * (containment): a copy with some strings swapped keeps most of them however much it adds, while a
 * page that reuses the reference's stylesheet, class names and layout but says its own things keeps
 * almost none. Markup is left out on purpose: a skill that asks for the same components in the same
 * design makes the markup alike by right; what must not be copied is the content.
 */
import { visibleText } from './visible-text.js';

/**
 * Words per run: two. Runs join neighbouring strings (a label and its value, a row's cells), so a
 * copy whose names were swapped loses the runs around each name and keeps the rest; on the bundled
 * dashboard such a copy keeps half the reference's pairs, a page of its own none.
 */
export const SHINGLE = 2;

export function wordRuns(file: string, text: string): Set<string> {
  const words = visibleText(file, text)
    .toLowerCase()
    .match(/[\p{L}\p{N}]+(?:[.,'’][\p{L}\p{N}]+)*/gu);
  const out = new Set<string>();
  if (words === null) return out;
  if (words.length < SHINGLE) out.add(words.join(' '));
  for (let i = 0; i + SHINGLE <= words.length; i++) out.add(words.slice(i, i + SHINGLE).join(' '));
  return out;
}

export interface Kept {
  /** The share of the reference's runs the artifact has, 0..1. */
  share: number;
  /** A few of the runs kept, in the reference's order, to show in a detail. */
  examples: string[];
}

export function keptOf(reference: ReadonlySet<string>, artifact: ReadonlySet<string>): Kept {
  const kept = [...reference].filter((run) => artifact.has(run));
  return { share: reference.size === 0 ? 0 : kept.length / reference.size, examples: kept.slice(0, 3) };
}
