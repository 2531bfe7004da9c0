/**
 * "Well-formed HTML" for artifact checks: every element that HTML requires to be closed is closed,
 * in order. Void elements (`<br>`, `<img>`) need no end tag; elements whose end tag HTML lets one
 * omit (`<li>`, `<p>`, `<td>`...) may be closed implicitly by their parent's end tag. Comments,
 * the doctype and the bodies of `<script>`, `<style>`, `<textarea>` and `<title>` are skipped.
 */
const VOID = new Set('area base br col embed hr img input link meta param source track wbr'.split(' '));
const OPTIONAL_END = new Set(
  'html head body p li dt dd option optgroup tr td th thead tbody tfoot colgroup caption rb rt rp'.split(' '),
);
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title']);

const TAG =
  /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<![^>]*>|<\?[^>]*>|<(\/?)([A-Za-z][A-Za-z0-9:-]*)((?:"[^"]*"|'[^']*'|[^'">])*)>/g;

/** The first problem found, or null when the document is well formed. */
export function htmlProblem(html: string): string | null {
  const open: { name: string; line: number }[] = [];
  const lineAt = (index: number): number => html.slice(0, index).split('\n').length;
  let sawElement = false;
  TAG.lastIndex = 0;
  for (let m = TAG.exec(html); m !== null; m = TAG.exec(html)) {
    if (m[2] === undefined) continue;
    const name = m[2].toLowerCase();
    const line = lineAt(m.index);
    sawElement = true;
    if (m[1] === '/') {
      const at = open.map((o) => o.name).lastIndexOf(name);
      if (at < 0) return `line ${line}: </${name}> closes nothing`;
      const unclosed = open.slice(at + 1).find((o) => !OPTIONAL_END.has(o.name));
      if (unclosed !== undefined)
        return `line ${line}: </${name}> closes <${unclosed.name}> of line ${unclosed.line}, which was never closed`;
      open.length = at;
      continue;
    }
    if (VOID.has(name) || (m[3] ?? '').trimEnd().endsWith('/')) continue;
    if (RAW_TEXT.has(name)) {
      const end = html.toLowerCase().indexOf(`</${name}`, TAG.lastIndex);
      if (end < 0) return `line ${line}: <${name}> is never closed`;
      TAG.lastIndex = end;
    }
    open.push({ name, line });
  }
  if (!sawElement) return 'no HTML elements';
  const unclosed = open.find((o) => !OPTIONAL_END.has(o.name));
  return unclosed === undefined ? null : `<${unclosed.name}> of line ${unclosed.line} is never closed`;
}
