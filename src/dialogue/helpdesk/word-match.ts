/**
 * The desk's search: a query matches an entry by the words they share, loosely enough that
 * "printing" finds "printer" (a common stem of five letters), strictly enough that short words
 * ("id", "on") match only themselves. Deterministic: ties go to the lower id.
 */

const STOPWORDS = new Set([
  'the',
  'and',
  'for',
  'with',
  'not',
  'can',
  'cant',
  'my',
  'is',
  'it',
  'to',
  'of',
  'on',
  'in',
  'a',
  'an',
]);

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length >= 2 && !STOPWORDS.has(w));
}

function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  let common = 0;
  while (common < a.length && common < b.length && a[common] === b[common]) common++;
  return common >= 5;
}

/** How many of the query's words the entry's terms contain. */
function overlap(query: readonly string[], terms: readonly string[]): number {
  return new Set(query.filter((q) => terms.some((t) => sameWord(q, t)))).size;
}

/** The best matches (at least one shared word), best first, at most `limit`. */
export function bestMatches<T>(
  query: string,
  entries: readonly T[],
  terms: (entry: T) => string,
  id: (entry: T) => string,
  limit: number,
): T[] {
  const q = words(query);
  return entries
    .map((entry) => ({ entry, score: overlap(q, words(terms(entry))) }))
    .filter((m) => m.score > 0)
    .sort((a, b) => b.score - a.score || id(a.entry).localeCompare(id(b.entry)))
    .slice(0, limit)
    .map((m) => m.entry);
}
