/**
 * What a page says to its reader, as one string: the text of an HTML page (parse5, so entities are
 * decoded and markup is no part of it) outside scripts, styles and templates, with the text a reader
 * is shown in place of an image or on hover (`alt`, `title`, `aria-label`) and the page's meta
 * description. Words split across inline elements (`<b>Aur</b>ora`) stay one word; every other element
 * boundary is a space. Any other file is read as it is: it says everything it holds.
 */
import { type DefaultTreeAdapterTypes, parse } from 'parse5';

type ChildNode = DefaultTreeAdapterTypes.ChildNode;

/** Files read as HTML: a page, or an SVG image (parse5 takes it as the HTML standard's foreign content). */
export function isHtmlFile(file: string): boolean {
  return /\.(html?|xhtml|svg)$/i.test(file);
}

/** Elements whose text is code or inert, never shown as it is. */
const NOT_SHOWN = new Set(['script', 'style', 'template', 'noscript']);
/** Phrasing elements: their boundaries are inside a run of text, not between runs. */
const INLINE = new Set(
  'a abbr b bdi bdo cite code data dfn em font i kbd mark q s samp small span strong sub sup time u var wbr'.split(
    ' ',
  ),
);
const SHOWN_ATTRIBUTES = new Set(['alt', 'title', 'aria-label']);

/** The visible text of `text` (HTML when `file` is a page), ASCII whitespace runs collapsed to one space. */
export function visibleText(file: string, text: string): string {
  const raw = isHtmlFile(file) ? pageText(text) : text;
  return raw.replace(/[ \t\n\r\f\v]+/g, ' ').trim();
}

function pageText(html: string): string {
  const parts: string[] = [];
  // Iterative: a page may nest elements deeper than the call stack goes. A string on the stack is
  // text to emit once every node pushed after it is done (an element's closing space).
  const pending: (ChildNode | string)[] = [...parse(html).childNodes].reverse();
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (typeof node === 'string') parts.push(node);
    else if (node.nodeName === '#text' && 'value' in node) parts.push(node.value);
    else if ('tagName' in node && !NOT_SHOWN.has(node.tagName)) {
      const gap = INLINE.has(node.tagName) ? '' : ' ';
      parts.push(gap, ...shownAttributes(node));
      pending.push(gap, ...[...node.childNodes].reverse());
    }
  }
  return parts.join('');
}

function shownAttributes(e: DefaultTreeAdapterTypes.Element): string[] {
  const isDescription =
    e.tagName === 'meta' && e.attrs.some((a) => a.name === 'name' && a.value.toLowerCase() === 'description');
  return e.attrs
    .filter((a) => SHOWN_ATTRIBUTES.has(a.name) || (isDescription && a.name === 'content'))
    .map((a) => ` ${a.value} `);
}
