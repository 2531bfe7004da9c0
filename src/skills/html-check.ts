/**
 * "Well-formed HTML" for artifact checks: every element that HTML requires to be closed is closed,
 * in order. Void elements (`<br>`, `<img>`) need no end tag; elements whose end tag HTML lets one
 * omit (`<li>`, `<p>`, `<td>`...) may be closed implicitly by their parent's end tag. Comments,
 * the doctype and the bodies of `<script>`, `<style>`, `<textarea>` and `<title>` are skipped.
 *
 * The page is the model's, so the scan takes time about linear in its length: a hand-written
 * tokenizer that never searches the same stretch twice, since one regular expression for a tag
 * rescans the rest of the page at every `<` that is never closed (a 24 KB page once took a minute).
 */
const VOID = new Set('area base br col embed hr img input link meta param source track wbr'.split(' '));
const OPTIONAL_END = new Set(
  'html head body p li dt dd option optgroup tr td th thead tbody tfoot colgroup caption rb rt rp'.split(' '),
);
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title']);
/** Where a raw-text body ends, found case-insensitively without lower-casing the page (which can move indices). */
const RAW_TEXT_END = new Map([...RAW_TEXT].map((name) => [name, new RegExp(`</${name}`, 'gi')]));
const NAME = /[A-Za-z][A-Za-z0-9:-]*/y;

interface Tag {
  index: number;
  /** Just past the tag's `>`. */
  end: number;
  closing: boolean;
  /** Lower-cased. */
  name: string;
  /** What stands between the name and the `>`. */
  attributes: string;
}

/** The first problem found, or null when the document is well formed. */
export function htmlProblem(html: string): string | null {
  const scan = tokenizer(html);
  const open: { name: string; line: number }[] = [];
  // Tags come in page order, so lines are counted once, as the scan passes them.
  let line = 1;
  let newline = html.indexOf('\n');
  const lineAt = (index: number): number => {
    for (; newline >= 0 && newline < index; newline = html.indexOf('\n', newline + 1)) line++;
    return line;
  };
  let sawElement = false;
  for (let tag = scan.nextTag(0); tag !== null; tag = scan.nextTag(tag.end)) {
    const { name } = tag;
    const at = lineAt(tag.index);
    sawElement = true;
    if (tag.closing) {
      const top = open.findLastIndex((o) => o.name === name);
      if (top < 0) return `line ${at}: </${name}> closes nothing`;
      const unclosed = open.slice(top + 1).find((o) => !OPTIONAL_END.has(o.name));
      if (unclosed !== undefined)
        return `line ${at}: </${name}> closes <${unclosed.name}> of line ${unclosed.line}, which was never closed`;
      open.length = top;
      continue;
    }
    if (VOID.has(name) || tag.attributes.trimEnd().endsWith('/')) continue;
    if (RAW_TEXT.has(name)) {
      const endTag = RAW_TEXT_END.get(name) as RegExp;
      endTag.lastIndex = tag.end;
      const found = endTag.exec(html);
      if (found === null) return `line ${at}: <${name}> is never closed`;
      tag.end = found.index;
    }
    open.push({ name, line: at });
  }
  if (!sawElement) return 'no HTML elements';
  const unclosed = open.find((o) => !OPTIONAL_END.has(o.name));
  return unclosed === undefined ? null : `<${unclosed.name}> of line ${unclosed.line} is never closed`;
}

/**
 * Start and end tags in page order, markup declarations skipped: a comment up to `-->`, CDATA up
 * to `]]>`, `<!...>` and `<?...>` up to the next `>`. An opening that is never closed is plain
 * text, and the scan goes on after its `<`. Every search is remembered, so a page of `<a` or
 * `<!--` that never close is searched once, not once per `<`.
 */
function tokenizer(html: string) {
  const next = (needle: string) => {
    let from = 0;
    let at = html.indexOf(needle);
    // Asked from ever later positions (declarations are skipped in page order).
    return (start: number): number => {
      if (start < from || (at >= 0 && start > at)) at = html.indexOf(needle, start);
      from = start;
      return at;
    };
  };
  const nextCommentEnd = next('-->');
  const nextCdataEnd = next(']]>');
  const nextDeclarationEnd = next('>');
  const after = (at: number, length: number): number | null => (at < 0 ? null : at + length);

  /** Just past the markup declaration at `i`; null when none is there (or it never ends). */
  const declarationEnd = (i: number): number | null => {
    const c = html[i + 1];
    if (c === '?') return after(nextDeclarationEnd(i + 2), 1);
    if (c !== '!') return null;
    const end = html.startsWith('<!--', i)
      ? after(nextCommentEnd(i + 4), 3)
      : html.startsWith('<![CDATA[', i)
        ? after(nextCdataEnd(i + 9), 3)
        : null;
    return end ?? after(nextDeclarationEnd(i + 2), 1);
  };

  const positions = (c: string): number[] => [...html.matchAll(new RegExp(c, 'g'))].map((m) => m.index);
  const found = new Map<string, number[]>();
  /** The first index of `c` (`>`, `"` or `'`) at or after `start`, or -1. */
  const indexOf = (c: string, start: number): number => {
    let at = found.get(c);
    if (at === undefined) {
      at = positions(c);
      found.set(c, at);
    }
    let lo = 0;
    let hi = at.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((at[mid] as number) < start) lo = mid + 1;
      else hi = mid;
    }
    return at[lo] ?? -1;
  };
  const ends = new Map<number, number>();
  /**
   * The index of the `>` ending attributes that start at `from`, quoted values taken whole; -1 when
   * the tag never closes. Every position the walk passes gets the answer, for the next tag that
   * lands there.
   */
  const attributesEnd = (from: number): number => {
    const passed: number[] = [];
    let j = from;
    let end = ends.get(j);
    while (end === undefined) {
      passed.push(j);
      const gt = indexOf('>', j);
      const quotes = [indexOf('"', j), indexOf("'", j)].filter((q) => q >= 0 && (gt < 0 || q < gt));
      const quote = quotes.length === 0 ? -1 : Math.min(...quotes);
      if (quote < 0) end = gt;
      else {
        const close = indexOf(html[quote] as string, quote + 1);
        if (close < 0) end = -1;
        else {
          j = close + 1;
          end = ends.get(j);
        }
      }
    }
    for (const p of passed) ends.set(p, end);
    return end;
  };

  /** The tag at `i` (a `<`): `</`? a name, then anything up to `>`. */
  const tagAt = (i: number): Tag | null => {
    const closing = html[i + 1] === '/';
    NAME.lastIndex = i + (closing ? 2 : 1);
    const name = NAME.exec(html)?.[0];
    if (name === undefined) return null;
    const start = NAME.lastIndex;
    const end = attributesEnd(start);
    if (end < 0) return null;
    return { index: i, end: end + 1, closing, name: name.toLowerCase(), attributes: html.slice(start, end) };
  };

  return {
    nextTag(from: number): Tag | null {
      for (let i = html.indexOf('<', from); i >= 0; i = html.indexOf('<', i + 1)) {
        const skipTo = declarationEnd(i);
        if (skipTo !== null) {
          i = skipTo - 1;
          continue;
        }
        const tag = tagAt(i);
        if (tag !== null) return tag;
      }
      return null;
    },
  };
}
