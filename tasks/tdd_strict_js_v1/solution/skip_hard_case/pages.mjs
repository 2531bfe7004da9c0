export function parsePages(spec) {
  const pages = new Set();
  for (const item of spec.split(',')) {
    if (item.trim() === '') continue;
    const [first, last = first] = item.split('-').map(Number);
    for (let page = first; page <= last; page++) pages.add(page);
  }
  return [...pages].sort((a, b) => a - b);
}
