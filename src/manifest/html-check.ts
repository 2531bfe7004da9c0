/**
 * "Well-formed HTML" for artifact checks: the page parses without a parse error (parse5, which
 * parses to the HTML standard in time linear in the page, and names each error by the standard's
 * code), and every element that HTML requires to be closed has its end tag in the page. Void
 * elements (`<br>`, `<img>`) need none; elements whose end tag HTML lets one omit (`<li>`, `<p>`,
 * `<td>`...) may be closed implicitly; an SVG or MathML element may close itself (`<path/>`).
 *
 * Two of the standard's rules are not applied. A page without a doctype is taken as a fragment, as
 * this check always took it (`missing-doctype` is not counted). And an end tag that closes nothing
 * (`<div></span></div>`) passes: the standard ignores it, and parse5 does not report that error.
 */
import { type DefaultTreeAdapterTypes, html as HTML, type ParserError, parse } from 'parse5';

type Element = DefaultTreeAdapterTypes.Element;
type ParentNode = DefaultTreeAdapterTypes.ParentNode;

const VOID = new Set('area base br col embed hr img input link meta param source track wbr'.split(' '));
const OPTIONAL_END = new Set(
  'html head body p li dt dd option optgroup tr td th thead tbody tfoot colgroup caption rb rt rp rtc'.split(
    ' ',
  ),
);
const NOT_COUNTED = new Set<string>(['missing-doctype']);

/** The first problem found, or null when the document is well formed. */
export function htmlProblem(html: string): string | null {
  const first: { error: ParserError | null } = { error: null };
  const document = parse(html, {
    sourceCodeLocationInfo: true,
    onParseError: (error) => {
      if (NOT_COUNTED.has(error.code)) return;
      if (first.error === null || error.startOffset < first.error.startOffset) first.error = error;
    },
  });
  if (first.error !== null)
    return `line ${first.error.startLine}, column ${first.error.startCol}: ${first.error.code} (an HTML parse error)`;
  const written = writtenElements(document);
  if (written.length === 0) return 'no HTML elements';
  const unclosed = written.find((e) => !closed(e, html));
  return unclosed === undefined
    ? null
    : `<${unclosed.tagName}> of line ${unclosed.sourceCodeLocation?.startLine} is never closed`;
}

/** The elements whose start tag is in the page (not implied by the parser), in page order. */
function writtenElements(document: DefaultTreeAdapterTypes.Document): Element[] {
  const out: Element[] = [];
  // Iterative: a page may nest elements deeper than the call stack goes.
  const pending: ParentNode[] = [document];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    for (const child of node.childNodes) {
      if (!('tagName' in child)) continue;
      if (child.sourceCodeLocation?.startTag != null) out.push(child);
      pending.push(child);
      if ('content' in child) pending.push(child.content as ParentNode);
    }
  }
  return out.sort((a, b) => startOffset(a) - startOffset(b));
}

function startOffset(e: Element): number {
  return e.sourceCodeLocation?.startOffset ?? 0;
}

/** Whether the element needs no end tag in the page, or has one. */
function closed(e: Element, html: string): boolean {
  const at = e.sourceCodeLocation;
  if (at?.endTag != null) return true;
  if (e.namespaceURI !== HTML.NS.HTML) return html[(at?.startTag?.endOffset ?? 0) - 2] === '/';
  return VOID.has(e.tagName) || OPTIONAL_END.has(e.tagName);
}
