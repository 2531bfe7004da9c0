/**
 * `text` up to the end of the last match of `closer` (a global regex), or '' when there is none.
 * A lazy `opener…closer` match can only end there, so cutting the rest changes no match; it keeps
 * each opener after the last closer (of a page the model wrote) from scanning on to the end in
 * vain, which makes `[...matchAll(opener…closer)]` linear instead of quadratic.
 */
export function upToLast(text: string, closer: RegExp): string {
  const last = [...text.matchAll(closer)].at(-1);
  return last === undefined ? '' : text.slice(0, last.index + last[0].length);
}
