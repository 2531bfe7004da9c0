/**
 * When the agent's module and the reference agree on one input, and how a disagreement reads.
 * An error is an outcome of its own: it agrees with an error (of the reference's class, when the
 * task's instruction fixes it), never with a value, and the messages are never compared, since no
 * instruction fixes their words. A call that changed its arguments agrees only with one that made
 * the same change.
 */
import { tagOf, type Wire } from './differential-wire.js';

/** What one call did, as a runner reported it. */
export type CaseOutcome =
  | { kind: 'returned'; value: Wire; argsAfter?: Wire }
  | { kind: 'threw'; types: readonly string[]; message: string; argsAfter?: Wire }
  /** It could not be called: its module does not load, it is missing, its arguments cannot be made. */
  | { kind: 'unavailable'; why: string };

export type Language = 'node' | 'python';

export interface AgreementRules {
  /** `thrown`: any error agrees with any error; `type`: the agent's must be of the reference's class (a subclass will do). */
  errors: 'thrown' | 'type';
  /** Two numbers not both integers agree within absolute + relative × the larger magnitude. */
  tolerance: { absolute: number; relative: number };
}

export function agrees(agent: CaseOutcome, reference: CaseOutcome, rules: AgreementRules): boolean {
  if (agent.kind === 'unavailable' || reference.kind === 'unavailable') return false;
  if (!sameArgs(agent.argsAfter, reference.argsAfter, rules)) return false;
  if (agent.kind === 'returned')
    return reference.kind === 'returned' && sameValue(agent.value, reference.value, rules.tolerance);
  if (reference.kind !== 'threw') return false;
  const wanted = reference.types[0];
  return rules.errors === 'thrown' || wanted === undefined || agent.types.includes(wanted);
}

function sameArgs(a: Wire | undefined, b: Wire | undefined, rules: AgreementRules): boolean {
  if (a === undefined || b === undefined) return a === b;
  return sameValue(a, b, rules.tolerance);
}

function sameValue(a: Wire, b: Wire, tolerance: AgreementRules['tolerance']): boolean {
  if (typeof a === 'number' && typeof b === 'number') {
    if (a === b) return true;
    if (Number.isInteger(a) && Number.isInteger(b)) return false;
    return Math.abs(a - b) <= tolerance.absolute + tolerance.relative * Math.max(Math.abs(a), Math.abs(b));
  }
  if (Array.isArray(a) || Array.isArray(b))
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((x: Wire, i) => sameValue(x, b[i] as Wire, tolerance))
    );
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const ta = a as { readonly [tag: string]: Wire };
    const tb = b as { readonly [tag: string]: Wire };
    const ka = Object.keys(ta).sort();
    const kb = Object.keys(tb).sort();
    return (
      ka.length === kb.length &&
      ka.every((k, i) => k === kb[i] && sameValue(ta[k] as Wire, tb[k] as Wire, tolerance))
    );
  }
  return a === b;
}

/** The longest a value is shown in a verdict: a call with dates and records, in Python, needs room. */
const SHOWN = 240;

const shorten = (text: string): string => (text.length <= SHOWN ? text : `${text.slice(0, SHOWN - 1)}…`);

/** A call as its language writes it: `parse_duration(' 1H ')`, `median([3, 1])`. */
export function renderCall(fn: string, args: readonly Wire[], language: Language): string {
  return shorten(`${fn}(${args.map((a) => render(a, language)).join(', ')})`);
}

/** What a call did, for a verdict: `returned 2.5`, `raised ValueError`, `changed its arguments to …`. */
export function renderOutcome(o: CaseOutcome, language: Language): string {
  if (o.kind === 'unavailable') return `could not be called: ${o.why}`;
  const did =
    o.kind === 'returned'
      ? `returned ${shorten(render(o.value, language))}`
      : `${language === 'python' ? 'raised' : 'threw'} ${o.types[0] ?? 'a non-error'}`;
  const args =
    o.argsAfter === undefined
      ? ''
      : ` and changed its arguments to ${shorten(render(o.argsAfter, language))}`;
  return `${did}${args}`;
}

function render(v: Wire, language: Language): string {
  const py = language === 'python';
  if (v === null) return py ? 'None' : 'null';
  if (typeof v === 'boolean') return py ? (v ? 'True' : 'False') : String(v);
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return py ? pythonString(v) : JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map((x: Wire) => render(x, language)).join(', ')}]`;
  return renderTagged(v as { readonly [tag: string]: Wire }, language);
}

function renderTagged(v: { readonly [tag: string]: Wire }, language: Language): string {
  const py = language === 'python';
  const tag = tagOf(v) ?? '';
  const inner = v[tag] ?? null;
  const list = (w: Wire): string[] => (Array.isArray(w) ? w.map((x: Wire) => render(x, language)) : []);
  const pairs = (w: Wire): string[] =>
    (Array.isArray(w) ? w : []).map((p: Wire) => list(p).join(py ? ': ' : ' => '));
  switch (tag) {
    case '$num':
      return py
        ? ({ NaN: 'nan', Infinity: 'inf', '-Infinity': '-inf' }[String(inner)] ?? String(inner))
        : String(inner);
    case '$undefined':
      return 'undefined';
    case '$bigint':
      return `${String(inner)}n`;
    case '$int':
      return String(inner);
    case '$tuple': {
      const items = list(inner);
      return items.length === 1 ? `(${items[0]},)` : `(${items.join(', ')})`;
    }
    case '$date':
      return py
        ? `datetime.date(${String(inner).split('-').map(Number).join(', ')})`
        : `Date(${String(inner)})`;
    case '$datetime':
      return py ? `datetime.datetime.fromisoformat('${String(inner)}')` : `Date(${String(inner)})`;
    case '$dict':
      return `{${pairs(inner).join(', ')}}`;
    case '$map':
      return `Map {${pairs(inner).join(', ')}}`;
    case '$set':
      return list(inner).length === 0 && py ? 'set()' : `${py ? '' : 'Set '}{${list(inner).join(', ')}}`;
    case '$object':
      return renderObject(inner, v.$class, language);
    case '$new':
      return `${py ? '' : 'new '}${String(inner)}(${list(v.args ?? null).join(', ')})`;
    case '$function':
      return py ? `<function ${String(inner)}>` : `[Function ${String(inner)}]`;
    case '$digest':
      return `${String(v.$head)}…`;
    case '$bytes':
      return `bytes.fromhex('${String(inner)}')`;
    default:
      return String(inner);
  }
}

function renderObject(fields: Wire, cls: Wire | undefined, language: Language): string {
  const entries =
    fields !== null && typeof fields === 'object' && !Array.isArray(fields) ? Object.entries(fields) : [];
  const shown = entries.map(([k, x]) => ({ k, x: render(x as Wire, language) }));
  if (language === 'python' && typeof cls === 'string')
    return `${cls}(${shown.map(({ k, x }) => `${k}=${x}`).join(', ')})`;
  const body = `{ ${shown.map(({ k, x }) => `${k}: ${x}`).join(', ')} }`;
  return typeof cls === 'string' ? `${cls} ${body}` : body;
}

/** Python's repr of a str, near enough: single quotes unless the text holds one. */
function pythonString(s: string): string {
  const inner = JSON.stringify(s).slice(1, -1).replace(/\\"/g, '"');
  return inner.includes("'") ? JSON.stringify(s) : `'${inner}'`;
}
