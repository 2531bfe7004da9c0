/** Page selections as typed in a print dialog: "1-3, 5" -> [1, 2, 3, 5]. */

const ITEM = /^(\d+)(?:-(\d+))?$/;

export function parsePages(spec) {
  // Spaces are ignored: drop them all first.
  const compact = spec.replace(/\s+/g, '');
  if (compact === '') return [];
  const pages = new Set();
  for (const item of compact.split(',')) {
    const match = ITEM.exec(item);
    if (match === null) throw new RangeError(`not a page or range: "${item}"`);
    const first = Number(match[1]);
    const last = match[2] === undefined ? first : Number(match[2]);
    if (first < 1 || last < first) throw new RangeError(`invalid range: "${item}"`);
    for (let page = first; page <= last; page++) pages.add(page);
  }
  return [...pages].sort((a, b) => a - b);
}
