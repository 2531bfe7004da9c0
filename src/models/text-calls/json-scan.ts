/**
 * A balanced-bracket scanner that respects JSON strings, so braces inside string values (code a
 * model writes to a file) never end an object early. Regexes cannot do this.
 */

/**
 * Text with memoised bracket matching. One scan resolves every opener it passes outside a string,
 * so a reply full of unclosed `{"name"` (a model stuck in a loop) costs one pass, not one per brace.
 */
export class JsonText {
  readonly text: string;
  private readonly closes = new Map<number, number | null>();

  constructor(text: string) {
    this.text = text;
  }

  /** Index just past the `}`/`]` matching the opener at `start`; null when unbalanced. */
  closeOf(start: number): number | null {
    const opener = this.text[start];
    if (opener !== '{' && opener !== '[') return null;
    const known = this.closes.get(start);
    if (known !== undefined) return known;
    this.scanFrom(start);
    return this.closes.get(start) ?? null;
  }

  private scanFrom(start: number): void {
    const text = this.text;
    const open: number[] = [];
    let inString = false;
    for (let i = start; i < text.length; i++) {
      const ch = text[i];
      if (inString) {
        if (ch === '\\') i++;
        else if (ch === '"') inString = false;
        continue;
      }
      if (ch === '"') inString = true;
      else if (ch === '{' || ch === '[') open.push(i);
      else if (ch === '}' || ch === ']') {
        const top = open.at(-1);
        // A wrong closer breaks every opener still open, whichever one a scan had started from.
        if (top === undefined || text[top] !== (ch === '}' ? '{' : '[')) break;
        open.pop();
        this.closes.set(top, i + 1);
        if (open.length === 0) return;
      }
    }
    for (const index of open) this.closes.set(index, null);
  }
}

export type JsonParse = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * JSON.parse with one repair small models need constantly: raw newlines and tabs inside strings
 * (a file's content written without escapes). Anything else broken stays an error.
 */
export function parseJsonLenient(text: string): JsonParse {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    const repaired = escapeControlCharsInStrings(text);
    if (repaired !== text) {
      try {
        return { ok: true, value: JSON.parse(repaired) };
      } catch {
        // Fall through to report the original error, which points at the real problem.
      }
    }
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

const CONTROL_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeControlCharsInStrings(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] ?? '';
    if (inString && ch === '\\') {
      out += ch + (text[i + 1] ?? '');
      i++;
      continue;
    }
    if (ch === '"') inString = !inString;
    out += inString ? (CONTROL_ESCAPES[ch] ?? ch) : ch;
  }
  return out;
}

/** Parses a balanced value starting at `start`; null when unbalanced (no closing bracket). */
export function parseValueAt(src: JsonText, start: number): { end: number; parsed: JsonParse } | null {
  const end = src.closeOf(start);
  if (end === null) return null;
  return { end, parsed: parseJsonLenient(src.text.slice(start, end)) };
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
