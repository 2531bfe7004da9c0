export function parsePages(spec) {
  if (spec.trim() === '') return [];
  const pages = new Set();
  for (const item of spec.split(',')) {
    const parts = item.split('-').map((part) => Number(part.trim()));
    const [first, last = first] = parts;
    if (parts.length > 2 || !parts.every((n) => Number.isInteger(n) && n >= 1) || last < first)
      throw new RangeError(`bad item: ${item}`);
    for (let page = first; page <= last; page++) pages.add(page);
  }
  return [...pages].sort((a, b) => a - b);
}
