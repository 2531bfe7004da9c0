/** The module-level functions of a generated service: list helpers, CSV, reporting, and the tax function. */
import { amountField, capital, dateField, type ServiceSpec, STALE_RATE, type TaxSpec } from './spec.js';

export function listHelpers(spec: ServiceSpec): string[] {
  const { entity: E, plural: P, id } = spec;
  const date = dateField(spec);
  const texts = [id, ...spec.fields.filter((f) => f.type === 'str').map((f) => f.name)].map(
    (n) => `item.${n}`,
  );
  return [
    [
      `def group_${P}_by_${spec.groupBy}(items: Iterable[${E}]) -> dict[str, list[${E}]]:`,
      `    """${capital(P)} keyed by ${spec.groupBy}, each list in input order."""`,
      `    groups: dict[str, list[${E}]] = defaultdict(list)`,
      '    for item in items:',
      `        groups[str(item.${spec.groupBy})].append(item)`,
      '    return dict(groups)',
    ].join('\n'),
    [
      `def sort_${P}(items: Iterable[${E}], newest_first: bool = True) -> list[${E}]:`,
      `    """By ${date}, then ${id}, so that ties always come out in the same order."""`,
      `    return sorted(items, key=lambda item: (item.${date}, item.${id}), reverse=newest_first)`,
    ].join('\n'),
    [
      `def ${P}_between(items: Iterable[${E}], start: dt.date, end: dt.date) -> list[${E}]:`,
      `    """${capital(P)} whose ${date} falls in [start, end]; ValueError when end is before start."""`,
      '    if end < start:',
      '        raise ValueError(f"empty range: {start} .. {end}")',
      `    return [item for item in items if start <= item.${date} <= end]`,
    ].join('\n'),
    [
      `def paginate_${P}(items: list[${E}], page: int, per_page: int = PAGE_SIZE) -> list[${E}]:`,
      '    """One 1-based page of items, as the admin list views show them."""',
      '    if page < 1:',
      '        raise ValueError("pages are numbered from 1")',
      '    if per_page < 1:',
      '        raise ValueError("per_page must be positive")',
      '    start = (page - 1) * per_page',
      '    return items[start : start + per_page]',
    ].join('\n'),
    [
      `def find_${P}(items: Iterable[${E}], query: str) -> list[${E}]:`,
      '    """Case-insensitive substring search over the text columns, for the admin search box."""',
      '    needle = query.strip().lower()',
      '    if not needle:',
      '        return []',
      `    return [item for item in items if any(needle in value.lower() for value in (${texts.join(', ')},))]`,
    ].join('\n'),
    [
      `def dedupe_${P}(items: Iterable[${E}]) -> list[${E}]:`,
      `    """Drops repeated ${id}s, keeping the first one (overlapping imports repeat rows)."""`,
      '    seen: set[str] = set()',
      `    unique: list[${E}] = []`,
      '    for item in items:',
      `        if item.${id} in seen:`,
      '            continue',
      `        seen.add(item.${id})`,
      '        unique.append(item)',
      '    return unique',
    ].join('\n'),
  ];
}

export function csvHelpers(spec: ServiceSpec): string {
  const { entity: E, plural: P } = spec;
  const columns = [spec.id, ...spec.fields.map((f) => f.name)].map((c) => `"${c}"`).join(', ');
  return [
    `_COLUMNS = [${columns}]`,
    '',
    '',
    `def ${P}_to_csv(items: Iterable[${E}]) -> str:`,
    '    """CSV text with a header row, in the column order of the nightly export."""',
    '    buffer = io.StringIO()',
    '    writer = csv.DictWriter(buffer, fieldnames=_COLUMNS, lineterminator="\\n")',
    '    writer.writeheader()',
    '    for item in items:',
    '        writer.writerow(item.to_row())',
    '    return buffer.getvalue()',
    '',
    '',
    `def ${P}_from_csv(text: str) -> list[${E}]:`,
    `    """Inverse of ${P}_to_csv. Blank lines are skipped; a bad row raises ValueError."""`,
    '    reader = csv.DictReader(io.StringIO(text))',
    `    return [${E}.from_row(row) for row in reader if any(row.values())]`,
  ].join('\n');
}

export function reporting(spec: ServiceSpec): string {
  const { entity: E, plural: P } = spec;
  const amount = amountField(spec);
  const date = dateField(spec);
  return [
    `def summarize_${P}(items: Iterable[${E}]) -> dict[str, object]:`,
    `    """Count, ${amount.name} total and date range, for the daily operations report."""`,
    '    rows = list(items)',
    `    dates = sorted(item.${date} for item in rows)`,
    '    return {',
    '        "count": len(rows),',
    `        "${amount.name}_total": round(sum(item.${amount.name} for item in rows), 2),`,
    ...(amount.type === 'float' ? ['        "currency": CURRENCY,'] : []),
    '        "first": dates[0].isoformat() if dates else None,',
    '        "last": dates[-1].isoformat() if dates else None,',
    '    }',
    '',
    '',
    `def format_${spec.noun}_line(item: ${E}) -> str:`,
    '    """One fixed-width line for the plain-text reports."""',
    `    return f"{item.${spec.id}:<14} {item.${spec.groupBy}!s:<12} {item.${amount.name}:>10} {item.${date}.isoformat()}"`,
  ].join('\n');
}

export function taxFunction(spec: ServiceSpec, tax: TaxSpec): string {
  let rate = 'TAX_RATE';
  let signature = `def ${tax.fn}(net_amount: float) -> float:`;
  const lines: string[] = [];
  if (tax.style === 'named-copy') {
    rate = `${spec.module.toUpperCase()}_TAX_RATE`;
    lines.push(
      `# Same rate as config.TAX_RATE; copied when ${spec.plural} moved out of billing.`,
      `${rate} = ${STALE_RATE}`,
      '',
      '',
    );
  } else if (tax.style === 'private-constant') rate = '_VAT';
  else if (tax.style === 'default-arg') {
    rate = 'tax_rate';
    signature = `def ${tax.fn}(net_amount: float, tax_rate: float = ${STALE_RATE}) -> float:`;
  }
  lines.push(
    signature,
    `    """Gross ${tax.what}: the net amount plus sales tax, rounded to cents."""`,
    '    if net_amount < 0:',
    '        raise ValueError("net_amount must not be negative")',
    `    return round(net_amount * (1 + ${rate}), 2)`,
  );
  return lines.join('\n');
}
