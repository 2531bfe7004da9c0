/**
 * Checks on what an artifact means, not its shape: facts it must state, placeholder text it must not
 * show, nothing it may fetch from elsewhere, a reference file it must not copy, and numbers it must
 * show as recomputed from the fresh input. Each is a pure function of the artifact's final text and
 * what the manifest computed when it loaded; a miss names the value, URL or placeholder.
 */
import type { ExpectedNumber } from './derived-values.js';
import { externalRefs } from './external-refs.js';
import { says } from './facts.js';
import { firstPlaceholder } from './placeholders.js';
import { numbersAfter, parseShown, type Shown, shownJsonNumber, showsValue } from './shown-numbers.js';
import { keptOf, SHINGLE, wordRuns } from './similarity.js';
import { visibleText } from './visible-text.js';

export type MeaningCheck =
  | { kind: 'fact'; wordings: string[] }
  | { kind: 'no_placeholders' }
  | { kind: 'no_external' }
  | { kind: 'not_copy_of'; reference: string; runs: ReadonlySet<string>; max: number }
  | { kind: 'derived_from'; input: string; expected: ExpectedNumber[]; formulas: string[] };

const ABSENCES = new Set(['no_placeholders', 'no_external', 'not_copy_of']);

/** Meaning checks that hold of any file at all (an empty one shows no placeholder): absences. */
export function isAbsence(c: { kind: string }): boolean {
  return ABSENCES.has(c.kind);
}

export function describeMeaning(file: string, c: MeaningCheck): string {
  switch (c.kind) {
    case 'fact':
      return `${file} says ${c.wordings.map((w) => JSON.stringify(w)).join(' or ')} in its visible text`;
    case 'no_placeholders':
      return `${file} shows no placeholder text (lorem ipsum, TODO/TBD/FIXME markers, "your text here", {{…}} or [insert …] leftovers)`;
    case 'no_external':
      return `${file} fetches nothing from elsewhere: no URL with a host, scheme-relative (//host) included, in any attribute, srcset, stylesheet (@import, url()) or script string`;
    case 'not_copy_of':
      return `${file} is no near-copy of ${c.reference}: it keeps at most ${percent(c.max)} of its text (runs of ${SHINGLE} words of the visible text)`;
    case 'derived_from':
      return `${file} shows the numbers recomputed from ${c.input} (${c.formulas.join('; ')}), to the places it shows`;
  }
}

/** null when the check holds of the artifact's text, else why not. */
export function meaningProblem(file: string, text: string, c: MeaningCheck): string | null {
  switch (c.kind) {
    case 'fact': {
      if (c.wordings.some((w) => says(visibleText(file, text), w))) return null;
      const [only, ...others] = c.wordings;
      return others.length === 0
        ? `${JSON.stringify(only)} is not in ${file}'s visible text`
        : `none of ${c.wordings.map((w) => JSON.stringify(w)).join(', ')} is in ${file}'s visible text`;
    }
    case 'no_placeholders': {
      const found = firstPlaceholder(visibleText(file, text));
      return found === null ? null : `${file} shows ${found.name}: ${JSON.stringify(found.excerpt)}`;
    }
    case 'no_external': {
      const refs = externalRefs(file, text);
      if (refs.length === 0) return null;
      const listed = refs.slice(0, 3).map((r) => `${r.url} (${r.where})`);
      return `${file} fetches from elsewhere: ${listed.join(', ')}${refs.length > 3 ? ` and ${refs.length - 3} more` : ''}`;
    }
    case 'not_copy_of': {
      const kept = keptOf(c.runs, wordRuns(file, text));
      if (kept.share <= c.max) return null;
      return `${file} keeps ${percent(kept.share)} of ${c.reference}'s text (at most ${percent(c.max)}), such as ${kept.examples.map((e) => JSON.stringify(e)).join(', ')}`;
    }
    case 'derived_from':
      return derivedProblem(file, text, c.input, c.expected);
  }
}

function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}

function derivedProblem(
  file: string,
  text: string,
  input: string,
  expected: readonly ExpectedNumber[],
): string | null {
  const shownText = expected.some((e) => 'label' in e.place) ? visibleText(file, text) : '';
  let json: { value: unknown } | null = null;
  const wrong: string[] = [];
  for (const e of expected) {
    const gives = `${input} gives ${formatValue(e.value)}: ${e.how}`;
    if ('label' in e.place) {
      const label = e.place.label;
      const shown = numbersAfter(shownText, label);
      const bad = shown.find((s) => !showsValue(s, e.value, e.tolerance));
      if (shown.length === 0) wrong.push(`no number after ${JSON.stringify(label)} (${gives})`);
      else if (bad !== undefined) wrong.push(`${JSON.stringify(label)} shows ${bad.text} (${gives})`);
      continue;
    }
    if (json === null) {
      try {
        json = { value: JSON.parse(text) };
      } catch (err) {
        return `${file} is not valid JSON: ${(err as Error).message}`;
      }
    }
    const problem = atPointer(json.value, e, gives);
    if (problem !== null) wrong.push(problem);
  }
  if (wrong.length === 0) return null;
  const more = wrong.length > 3 ? `; and ${wrong.length - 3} more` : '';
  return `${file}: ${wrong.slice(0, 3).join('; ')}${more}`;
}

function atPointer(root: unknown, e: ExpectedNumber, gives: string): string | null {
  const pointer = 'pointer' in e.place ? e.place.pointer : '';
  const found = resolvePointer(root, pointer);
  if (found === undefined) return `nothing at ${pointer} (${gives})`;
  const shown: Shown | null =
    typeof found === 'number' ? shownJsonNumber(found) : typeof found === 'string' ? parseShown(found) : null;
  if (shown === null) return `${pointer} holds ${JSON.stringify(found)}, no number (${gives})`;
  return showsValue(shown, e.value, e.tolerance) ? null : `${pointer} is ${shown.text} (${gives})`;
}

/** The value an RFC 6901 JSON pointer names, or undefined. */
function resolvePointer(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  let at: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(at)) at = /^(?:0|[1-9]\d*)$/.test(token) ? at[Number(token)] : undefined;
    else if (typeof at === 'object' && at !== null && Object.hasOwn(at, token))
      at = (at as Record<string, unknown>)[token];
    else return undefined;
  }
  return at;
}

function formatValue(v: number): string {
  return String(Number(v.toFixed(6)));
}
