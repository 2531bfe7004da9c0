/**
 * Renders one service module of the shop backend from a small spec: a frozen dataclass with CSV
 * round-tripping, validation, grouping, sorting, paging, search and a summary, plus (for the
 * modules that charge tax) a gross-total function. Deterministic: the same spec gives the same bytes.
 */

export type FieldType = 'str' | 'int' | 'float' | 'bool' | 'date';

export interface Field {
  name: string;
  type: FieldType;
}

/** How a tax function gets its rate: from config (right), or from one of four kinds of stale copy. */
export type TaxStyle = 'config' | 'module-constant' | 'named-copy' | 'private-constant' | 'default-arg';

export const STALE_RATE = '0.07';

export interface TaxSpec {
  fn: string;
  /** What the gross amount is, for the docstring. */
  what: string;
  style: TaxStyle;
}

export interface ServiceSpec {
  module: string;
  summary: string;
  about: string;
  entity: string;
  noun: string;
  plural: string;
  id: string;
  fields: Field[];
  groupBy: string;
  tax?: TaxSpec;
  /** config names the extra code uses. */
  configNames?: string[];
  extra?: string;
}

const PY_TYPE: Record<FieldType, string> = {
  str: 'str',
  int: 'int',
  float: 'float',
  bool: 'bool',
  date: 'dt.date',
};

export function renderService(spec: ServiceSpec): string {
  const parts = [header(spec), dataclass(spec)];
  if (spec.tax?.style === 'private-constant') {
    parts.push(
      `# VAT on renewals; finance wanted the number visible next to the billing code.\n_VAT = ${STALE_RATE}`,
    );
  }
  parts.push(validation(spec), ...listHelpers(spec), csvHelpers(spec), reporting(spec));
  if (spec.tax !== undefined) parts.push(taxFunction(spec, spec.tax));
  if (spec.extra !== undefined) parts.push(spec.extra.trim());
  return `${parts.join('\n\n\n')}\n`;
}

function header(spec: ServiceSpec): string {
  const names = new Set(['CURRENCY', 'PAGE_SIZE', ...(spec.configNames ?? [])]);
  if (spec.tax?.style === 'config') names.add('TAX_RATE');
  const lines = [
    `"""${spec.summary}`,
    '',
    ...wrap(spec.about, 88),
    '"""',
    '',
    'from __future__ import annotations',
    '',
    'import csv',
    'import dataclasses',
    'import datetime as dt',
    'import io',
    'from collections import defaultdict',
    'from typing import Iterable',
    '',
    `from config import ${[...names].sort().join(', ')}`,
  ];
  if (spec.tax?.style === 'module-constant') {
    lines.push(
      '',
      '# Copied from config.py so that importing this module never touches the config.',
      `TAX_RATE = ${STALE_RATE}`,
    );
  }
  return lines.join('\n');
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

function toText(f: Field): string {
  const v = `self.${f.name}`;
  return {
    str: v,
    int: `str(${v})`,
    float: `f"{${v}:.2f}"`,
    bool: `"yes" if ${v} else "no"`,
    date: `${v}.isoformat()`,
  }[f.type];
}

function fromText(f: Field): string {
  const v = `row["${f.name}"]`;
  return {
    str: v,
    int: `int(${v})`,
    float: `float(${v})`,
    bool: `_parse_flag(${v})`,
    date: `dt.date.fromisoformat(${v})`,
  }[f.type];
}

function dataclass(spec: ServiceSpec): string {
  const all: Field[] = [{ name: spec.id, type: 'str' }, ...spec.fields];
  const out = [
    '@dataclasses.dataclass(frozen=True)',
    `class ${spec.entity}:`,
    `    """One ${spec.noun} as stored in the ${spec.plural} table."""`,
    '',
    ...all.map((f) => `    ${f.name}: ${PY_TYPE[f.type]}`),
    '',
    '    def to_row(self) -> dict[str, str]:',
    '        """Flatten to strings for the CSV export and the audit log."""',
    '        return {',
    ...all.map((f) => `            "${f.name}": ${toText(f)},`),
    '        }',
    '',
    '    @classmethod',
    `    def from_row(cls, row: dict[str, str]) -> ${spec.entity}:`,
    '        """Inverse of to_row. Raises ValueError on a missing or malformed column."""',
    '        try:',
    '            return cls(',
    ...all.map((f) => `                ${f.name}=${fromText(f)},`),
    '            )',
    '        except (KeyError, ValueError) as exc:',
    `            raise ValueError(f"bad ${spec.noun} row {row!r}: {exc}") from exc`,
  ];
  if (spec.fields.some((f) => f.type === 'bool')) {
    out.push(
      '',
      '',
      'def _parse_flag(value: str) -> bool:',
      '    """CSV flags are written yes/no; exports before 2023 used 1/0."""',
      '    lowered = value.strip().lower()',
      '    if lowered in ("yes", "1", "true"):',
      '        return True',
      '    if lowered in ("no", "0", "false", ""):',
      '        return False',
      '    raise ValueError(f"not a yes/no flag: {value!r}")',
    );
  }
  return out.join('\n');
}

function validation(spec: ServiceSpec): string {
  const checks = [{ name: spec.id, type: 'str' as const }, ...spec.fields].flatMap((f) => {
    const v = `item.${f.name}`;
    switch (f.type) {
      case 'str':
        return [`    if not ${v}.strip():`, `        problems.append("${f.name} is empty")`];
      case 'int':
      case 'float':
        return [`    if ${v} < 0:`, `        problems.append(f"${f.name} is negative: {${v}}")`];
      case 'date':
        return [
          `    if ${v} > dt.date.today():`,
          `        problems.append(f"${f.name} is in the future: {${v}.isoformat()}")`,
        ];
      default:
        return [];
    }
  });
  return [
    `def validate_${spec.noun}(item: ${spec.entity}) -> list[str]:`,
    `    """Every problem found with one ${spec.noun}, as readable strings (empty when it is valid)."""`,
    '    problems: list[str] = []',
    ...checks,
    '    return problems',
  ].join('\n');
}

export function dateField(spec: ServiceSpec): string {
  return spec.fields.find((f) => f.type === 'date')?.name ?? spec.id;
}

export function amountField(spec: ServiceSpec): Field {
  return (
    spec.fields.find((f) => f.type === 'float') ??
    spec.fields.find((f) => f.type === 'int') ?? { name: 'id', type: 'int' }
  );
}

function listHelpers(spec: ServiceSpec): string[] {
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

function csvHelpers(spec: ServiceSpec): string {
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

function reporting(spec: ServiceSpec): string {
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

function taxFunction(spec: ServiceSpec, tax: TaxSpec): string {
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

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
