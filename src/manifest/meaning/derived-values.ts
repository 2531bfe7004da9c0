/**
 * `derived_from`: the numbers an artifact must show, recomputed from an input file of the folder (the
 * fresh instance's, for a skill with variants: the loader parses each instance's manifest against its
 * own folder) when the manifest loads. Each value is a formula (aggregate.ts) over the input's rows,
 * optionally only those `where` columns hold given values, and `by` a column: one value per distinct
 * value of it, in order, its `{column}` filled into the label or pointer. The artifact shows a value
 * after a `label` in its text (shown-numbers.ts) or at a JSON pointer `at` (a JSON artifact).
 */
import { z } from 'zod';
import type { SkillFolder } from '../folder.js';
import { applyAggregate, columnsOf, parseAggregate } from './aggregate.js';
import { type Row, readTable, type Table } from './table-input.js';

export interface ExpectedNumber {
  /** Where the artifact shows it. */
  place: { label: string } | { pointer: string };
  value: number;
  tolerance: number;
  /** How it was computed, for a detail: `sum(units * price) for region = north`. */
  how: string;
}

const DerivedValue = z
  .strictObject({
    label: z.string().trim().min(1).optional(),
    at: z
      .string()
      .regex(/^(?:\/.*)?$/, 'must be a JSON pointer: "" or starting with "/" (/by_status/open)')
      .optional(),
    value: z.string().min(1),
    by: z.string().min(1).optional(),
    where: z.record(z.string(), z.union([z.string(), z.array(z.string()).min(1)])).optional(),
    tolerance: z.number().min(0).optional(),
  })
  .transform((v, ctx) => {
    if ((v.label === undefined) === (v.at === undefined))
      ctx.addIssue({
        code: 'custom',
        message: 'give exactly one of label (in the text) and at (a JSON pointer)',
      });
    const template = v.label ?? v.at ?? '';
    if (v.by !== undefined && !template.includes(`{${v.by}}`))
      ctx.addIssue({
        code: 'custom',
        message: `with by, the ${v.label === undefined ? 'pointer' : 'label'} names the group: put {${v.by}} in it`,
      });
    const aggregate = parseAggregate(v.value);
    if (typeof aggregate === 'string') {
      ctx.addIssue({ code: 'custom', path: ['value'], message: aggregate });
      return z.NEVER;
    }
    return { ...v, aggregate };
  });

type WireValue = z.output<typeof DerivedValue>;

/** The `derived_from` key; `file` is the schema of a file of the folder (manifest-parts.ts's). */
export function derivedFromEntry(folder: SkillFolder, file: z.ZodType<string>) {
  return z.strictObject({ input: file, values: z.array(DerivedValue).min(1) }).transform((d, ctx) => {
    const expected = expectedNumbers(d.input, folder.read(d.input).toString('utf8'), d.values);
    if (typeof expected === 'string') {
      ctx.addIssue({ code: 'custom', message: `${d.input}: ${expected}` });
      return z.NEVER;
    }
    return { input: d.input, values: d.values, expected };
  });
}

/** The values recomputed from the input's text, or why they cannot be. */
export function expectedNumbers(
  input: string,
  text: string,
  values: readonly WireValue[],
): ExpectedNumber[] | string {
  const table = readTable(input, text);
  if (typeof table === 'string') return table;
  const out: ExpectedNumber[] = [];
  for (const v of values) {
    const missing = [
      ...columnsOf(v.aggregate),
      ...(v.by === undefined ? [] : [v.by]),
      ...Object.keys(v.where ?? {}),
    ].find((c) => !table.columns.includes(c));
    if (missing !== undefined)
      return `no column ${JSON.stringify(missing)} (its columns: ${table.columns.join(', ')})`;
    const computed = groupValues(v, table);
    if (typeof computed === 'string') return `${v.value}: ${computed}`;
    out.push(...computed);
  }
  return out;
}

function groupValues(v: WireValue, table: Table): ExpectedNumber[] | string {
  const rows = table.rows.filter((r) => matchesWhere(r, v.where ?? {}));
  const filter = Object.entries(v.where ?? {}).map(([c, want]) => `${c} = ${[want].flat().join(' or ')}`);
  const by = v.by;
  const groups: [string | null, Row[]][] =
    by === undefined
      ? [[null, rows]]
      : [...new Set(rows.map((r) => r[by] ?? ''))].sort().map((g) => [g, rows.filter((r) => r[by] === g)]);
  const out: ExpectedNumber[] = [];
  for (const [group, members] of groups) {
    const value = applyAggregate(v.aggregate, members);
    if (typeof value === 'string') return group === null ? value : `${value} (${by} = ${group})`;
    const conditions = [...filter, ...(group === null ? [] : [`${by} = ${group}`])];
    out.push({
      place: placeOf(v, group),
      value,
      tolerance: v.tolerance ?? 0,
      how: `${v.aggregate.source.trim()}${conditions.length === 0 ? '' : ` for ${conditions.join(', ')}`}`,
    });
  }
  return out;
}

function matchesWhere(row: Row, where: Readonly<Record<string, string | string[]>>): boolean {
  return Object.entries(where).every(([column, want]) => [want].flat().includes(row[column] ?? ''));
}

function placeOf(v: WireValue, group: string | null): ExpectedNumber['place'] {
  const fill = (template: string, value: string): string =>
    group === null || v.by === undefined ? template : template.split(`{${v.by}}`).join(value);
  if (v.label !== undefined) return { label: fill(v.label, group ?? '') };
  // A group's value is one token of the pointer: its `~` and `/` escaped as RFC 6901 says.
  return { pointer: fill(v.at ?? '', (group ?? '').replace(/~/g, '~0').replace(/\//g, '~1')) };
}
