/**
 * `facts`: what the artifact must say, each in one of the wordings the manifest allows, found in its
 * visible text (visible-text.ts) however it is marked up or spaced: case, runs of spaces (a no-break
 * space too), typographic quotes and dashes do not count, and a fact is found only as words of its
 * own (`48 hours` is not in `148 hours`).
 */

function normalized(s: string): string {
  return s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[‘’‛′]/g, "'")
    .replace(/[“”„″]/g, '"')
    .replace(/[‐‑‒–—]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
}

const isWordChar = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}]/u.test(c);

/** Whether the text says the wording, as words of their own. */
export function says(text: string, wording: string): boolean {
  const hay = normalized(text);
  const needle = normalized(wording);
  if (needle === '') return false;
  for (let at = hay.indexOf(needle); at !== -1; at = hay.indexOf(needle, at + 1)) {
    const startsWord = isWordChar(needle[0]);
    const endsWord = isWordChar(needle.at(-1));
    if ((!startsWord || !isWordChar(hay[at - 1])) && (!endsWord || !isWordChar(hay[at + needle.length])))
      return true;
  }
  return false;
}
