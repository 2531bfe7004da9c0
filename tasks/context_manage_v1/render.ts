/**
 * Renders one service module of the shop backend from a small spec: a frozen dataclass with CSV
 * round-tripping, validation, grouping, sorting, paging, search and a summary, plus (for the
 * modules that charge tax) a gross-total function. Deterministic: the same spec gives the same bytes.
 */
import { csvHelpers, listHelpers, reporting, taxFunction } from './render-functions.js';
import { type Field, type FieldType, type ServiceSpec, STALE_RATE } from './spec.js';

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
