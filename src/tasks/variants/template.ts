/**
 * `{{instance.key}}` in a variant task's instruction and in every string of its manifest's flags
 * and scripts: replaced by the instance's value at that dotted path (instance.json, flat or
 * nested). A key the instance lacks is the task author's mistake, named in one line.
 */
import { UsageError } from '../../util/errors.js';

const PLACEHOLDER = /\{\{\s*instance\.([A-Za-z0-9_.-]+)\s*\}\}/g;

export interface TemplateScope {
  taskId: string;
  /** Which instance the values are of, for the message. */
  instanceId: string;
  values: Readonly<Record<string, unknown>>;
  /** Where the values come from, for the message (default instance.json). */
  source?: string;
}

/** `text` with every placeholder replaced; a missing or non-scalar value throws a UsageError. */
export function fillText(text: string, scope: TemplateScope): string {
  return text.replace(PLACEHOLDER, (_, path: string) => valueAt(path, scope));
}

/** Every string inside `value` (arrays and tables, at any depth) filled; other values as they are. */
export function fillStrings(value: unknown, scope: TemplateScope): unknown {
  if (typeof value === 'string') return fillText(value, scope);
  if (Array.isArray(value)) return value.map((v) => fillStrings(v, scope));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillStrings(v, scope)]));
  return value;
}

const WHOLE = /^\{\{\s*instance\.([A-Za-z0-9_.-]+)\s*\}\}$/;

/**
 * fillStrings for a typed data file: a string that is one placeholder alone becomes the value as it
 * is (a number stays a number, for a price or a quantity); other strings, and keys (an id keying a
 * table), are filled as text.
 */
export function fillTyped(value: unknown, scope: TemplateScope): unknown {
  if (typeof value === 'string') {
    const path = WHOLE.exec(value)?.[1];
    if (path === undefined) return fillText(value, scope);
    const at = lookUp(path, scope.values);
    return typeof at === 'number' ? at : valueAt(path, scope);
  }
  if (Array.isArray(value)) return value.map((v) => fillTyped(v, scope));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [fillText(k, scope), fillTyped(v, scope)]),
    );
  return value;
}

function lookUp(path: string, values: Readonly<Record<string, unknown>>): unknown {
  let at: unknown = values;
  for (const part of path.split('.')) {
    at =
      at !== null && typeof at === 'object' && !Array.isArray(at) && Object.hasOwn(at, part)
        ? (at as Record<string, unknown>)[part]
        : undefined;
  }
  return at;
}

function valueAt(path: string, scope: TemplateScope): string {
  const at = lookUp(path, scope.values);
  if (typeof at === 'string') return at;
  if (typeof at === 'number' || typeof at === 'boolean') return String(at);
  const what = at === undefined ? 'has no key' : 'has no text or number at';
  throw new UsageError(
    `${scope.taskId}: {{instance.${path}}}: instance ${scope.instanceId} ${what} "${path}" (${scope.source ?? 'instance.json'})`,
  );
}
