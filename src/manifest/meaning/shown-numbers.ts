/**
 * Numbers as an artifact shows them, and whether one shows a recomputed value. A number may carry
 * thousands separators (`1,234.50`; a no-break or narrow no-break space too), a sign (`-`, `−`) and a
 * currency sign; it must not run on into letters (`31k` is not 31). It shows a value when it is the
 * value rounded to the places it shows, in either direction at a tie (`1234.5`, `1,234.50` and
 * `1235` all show 1234.5), or within the manifest's declared tolerance.
 */

export interface Shown {
  /** As written. */
  text: string;
  value: number;
  /** Places after the decimal point, as written. */
  decimals: number;
}

const NUMBER = String.raw`([-−]?)[$€£¥]?(\d{1,3}(?:[,\u00a0\u202f]\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?![\p{L}\p{N}]|\.\d)`;
/** After a label: a few separators (`=`, `:`, a table's `|`, Markdown's `**`, quotes), then the number. */
const AFTER_LABEL = new RegExp(String.raw`[\s:=|*_"'\x60()[\]→–—$€£¥-]{0,12}?${NUMBER}`, 'uy');
const WHOLE = new RegExp(String.raw`^\s*${NUMBER}\s*$`, 'u');

function shown(m: RegExpExecArray): Shown {
  const digits = (m[2] ?? '').replace(/[,\u00a0\u202f]/g, '');
  const value = Number(digits) * (m[1] === '' ? 1 : -1);
  return { text: `${m[1]}${m[2]}`, value, decimals: digits.split('.')[1]?.length ?? 0 };
}

/** A string that is one number and nothing else (a JSON value written as text), else null. */
export function parseShown(text: string): Shown | null {
  const m = WHOLE.exec(text);
  return m === null ? null : shown(m);
}

/** A JSON number as shown: its shortest decimal form. */
export function shownJsonNumber(n: number): Shown {
  const text = String(n);
  return { text, value: n, decimals: /e/i.test(text) ? 20 : (text.split('.')[1]?.length ?? 0) };
}

/**
 * The number right after each place the label stands in the text as words of its own (any case,
 * any run of spaces between its words); places with no number right after it are no claim.
 */
export function numbersAfter(text: string, label: string): Shown[] {
  const trimmed = label.trim();
  const words = trimmed.split(/\s+/).map(escapeRegExp).join(String.raw`\s+`);
  // A label's word is not part of a longer one: `open` is not in `reopened` nor `open_urgent`.
  const isWord = (c: string): boolean => /[\p{L}\p{N}_]/u.test(c);
  const edge = String.raw`[\p{L}\p{N}_]`;
  const before = isWord(trimmed.slice(0, 1)) ? `(?<!${edge})` : '';
  const after = isWord(trimmed.slice(-1)) ? `(?!${edge})` : '';
  const at = new RegExp(`${before}${words}${after}`, 'giu');
  const out: Shown[] = [];
  for (const m of text.matchAll(at)) {
    AFTER_LABEL.lastIndex = m.index + m[0].length;
    const n = AFTER_LABEL.exec(text);
    if (n !== null) out.push(shown(n));
  }
  return out;
}

/** Whether the shown number is the value, to the places it shows or within the tolerance. */
export function showsValue(s: Shown, value: number, tolerance: number): boolean {
  const halfPlace = 0.5 * 10 ** -s.decimals;
  return Math.abs(s.value - value) <= Math.max(halfPlace, tolerance) + 1e-9 * Math.max(1, Math.abs(value));
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
