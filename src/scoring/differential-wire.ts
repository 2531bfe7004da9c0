/**
 * The values a differential check passes between the host and its runners
 * (src/scoring/differential-runners.ts): JSON, with every value JSON cannot hold as a one-key
 * object whose key is a tag (`{ "$num": "NaN" }`, `{ "$date": "2026-04-01" }`). Plain objects are
 * tagged too (`{ "$object": {...} }`), so no user object is ever read as a tag. The runners encode
 * results canonically (object keys, dict pairs and set items sorted), so one value has one form.
 */
import { InternalError } from '../util/errors.js';

export type Wire = null | boolean | number | string | readonly Wire[] | { readonly [tag: string]: Wire };

/** An argument built in its wire form by `wire`, which toWire passes through as it is. */
export class WireForm {
  readonly form: Wire;
  constructor(form: Wire) {
    this.form = form;
  }
}

/**
 * Arguments that no JavaScript value stands for, built as the runners decode them. Each is parsed
 * when it is built, so a draw that cannot be sent fails where it is written, not in the sandbox.
 */
export const wire = {
  /** A calendar date, `YYYY-MM-DD`: a `datetime.date` in Python, a Date at midnight UTC in node. */
  date(iso: string): WireForm {
    const utc = /^\d{4}-\d{2}-\d{2}$/.test(iso) ? Date.parse(`${iso}T00:00:00Z`) : Number.NaN;
    // A day past its month's end may roll over into the next: a real date reads back as written.
    if (Number.isNaN(utc) || new Date(utc).toISOString().slice(0, 10) !== iso || iso < '0001-01-01')
      throw new InternalError(`a differential date that is no calendar date: ${JSON.stringify(iso)}`);
    return new WireForm({ $date: iso });
  },
  /** A tuple in Python (an array in node). */
  tuple(items: readonly unknown[]): WireForm {
    return new WireForm({ $tuple: items.map(toWire) });
  },
  /** `new className(...args)` of the module the call is made in (a dataclass's fields, in order, in Python). */
  instance(className: string, args: readonly unknown[]): WireForm {
    return new WireForm({ $new: className, args: args.map(toWire) });
  },
};

/** A drawn argument as the runners read it; a value with no wire form is the task author's mistake. */
export function toWire(value: unknown): Wire {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value + 0 : { $num: String(value) };
  if (value === undefined) return { $undefined: true };
  if (typeof value === 'bigint') return { $bigint: String(value) };
  if (Array.isArray(value)) return value.map(toWire);
  if (value instanceof WireForm) return value.form;
  if (value instanceof Date) return { $datetime: value.toISOString() };
  // A plain object: fast-check's records have no prototype at all.
  const proto = typeof value === 'object' ? Object.getPrototypeOf(value) : undefined;
  if (proto === Object.prototype || proto === null)
    return { $object: Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, toWire(v)])) };
  throw new InternalError(
    `a differential argument with no wire form: a ${typeof value} (${Object.prototype.toString.call(value)})`,
  );
}

/** The tag of a tagged value, or null for plain JSON (a number, a string, an array...). */
export function tagOf(value: Wire): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  return Object.keys(value).find((k) => k.startsWith('$')) ?? null;
}
