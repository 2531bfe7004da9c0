/**
 * The rows of an input a `derived_from` recomputes from: a CSV file (RFC 4180: a header row, fields
 * quoted with `"` where they hold commas, quotes or line breaks, `""` for a quote inside) or a JSON
 * array of objects (each value read as its text). Every cell is a string; aggregate.ts reads numbers.
 */

export type Row = Readonly<Record<string, string>>;

export interface Table {
  columns: string[];
  rows: Row[];
}

/** The table in `text` (by the extension of `path`), or why it is none. */
export function readTable(path: string, text: string): Table | string {
  if (/\.csv$/i.test(path)) return csvTable(text);
  if (/\.json$/i.test(path)) return jsonTable(text);
  return `${path} is no CSV or JSON file`;
}

function csvTable(text: string): Table | string {
  const records = csvRecords(text.replace(/^\ufeff/, ''));
  if (typeof records === 'string') return records;
  const [header, ...body] = records;
  if (header === undefined) return 'the CSV file is empty';
  const rows: Row[] = [];
  for (const [i, fields] of body.entries()) {
    if (fields.length === 1 && fields[0] === '') continue; // a blank line
    if (fields.length !== header.length)
      return `record ${i + 2} has ${fields.length} fields, the header ${header.length}`;
    rows.push(Object.fromEntries(header.map((h, j) => [h.trim(), fields[j] ?? ''])));
  }
  return { columns: header.map((h) => h.trim()), rows };
}

/** The records of a CSV text, each its fields; a quote left open is an error. */
function csvRecords(text: string): string[][] | string {
  const records: string[][] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c !== '"') field += c;
      else if (text[i + 1] === '"') field += text[++i];
      else quoted = false;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      fields.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      records.push([...fields, field]);
      fields = [];
      field = '';
    } else field += c;
  }
  if (quoted) return 'a quoted field is never closed';
  if (field !== '' || fields.length > 0) records.push([...fields, field]);
  return records;
}

function jsonTable(text: string): Table | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return `not valid JSON: ${(err as Error).message}`;
  }
  if (!Array.isArray(value)) return 'a JSON input is an array of objects, one per row';
  const columns = new Set<string>();
  const rows: Row[] = [];
  for (const [i, item] of value.entries()) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return `item ${i} is no object`;
    const row: Record<string, string> = {};
    for (const [k, v] of Object.entries(item)) {
      columns.add(k);
      row[k] = v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
    }
    rows.push(row);
  }
  return { columns: [...columns], rows };
}
