/** Narrowing of server JSON, where any field may be missing or of another type than documented. */

export type JsonObject = Record<string, unknown>;

export function object(v: unknown): JsonObject | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as JsonObject) : null;
}

export function array(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** A non-empty string. */
export function text(v: unknown): string | null {
  return typeof v === 'string' && v.trim() !== '' ? v : null;
}

/** A positive finite number (servers write 0 or -1 for "not known"). */
export function positive(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : null;
}

export function bool(v: unknown): boolean | null {
  return typeof v === 'boolean' ? v : null;
}
