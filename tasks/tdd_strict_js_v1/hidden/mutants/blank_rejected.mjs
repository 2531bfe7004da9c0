// Mutant: a blank spec throws instead of selecting nothing.
export function parsePages(spec) {
  const pages = new Set();
  for (const raw of spec.split(',')) {
    const item = raw.trim();
    const match = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(item);
    if (match === null) throw new RangeError(`not a page or range: "${item}"`);
    const first = Number(match[1]);
    const last = match[2] === undefined ? first : Number(match[2]);
    if (first < 1 || last < first) throw new RangeError(`invalid range: "${item}"`);
    for (let page = first; page <= last; page++) pages.add(page);
  }
  return [...pages].sort((a, b) => a - b);
}
