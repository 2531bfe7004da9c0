/**
 * What an HTML page (or SVG image) fetches while it renders, parsed by parse5 (so `&#47;&#47;cdn` is
 * `//cdn`, as the browser reads it): every `src`, `srcset`, `poster` and `background`; `<object
 * data>`; `<link href>` unless every `rel` of it is navigation (`canonical`, `alternate`, …); `<base
 * href>` (it makes every relative URL its own); a `<meta http-equiv=refresh>` target; an SVG
 * element's `href` (`<use>`, `<image>`, `<feImage>`), the CSS of `<style>` elements, `style`
 * attributes and SVG paint attributes (css-urls.ts); the strings of scripts (script-urls.ts), and a
 * frame's `srcdoc` page. A link the reader follows (`<a href>`, `<area href>`, `<form action>`)
 * fetches nothing by itself; nor do `xmlns` names or data blocks (`<script type="application/ld+json">`).
 */
import { type DefaultTreeAdapterTypes, html as HTML, parse } from 'parse5';
import { cssUrls } from './css-urls.js';
import { isExternalUrl } from './external-url.js';
import { jsonUrls, scriptUrls } from './script-urls.js';

type Element = DefaultTreeAdapterTypes.Element;
type ParentNode = DefaultTreeAdapterTypes.ParentNode;

export interface ExternalRef {
  url: string;
  /** Where the page asks for it: `<link href>`, `CSS in <style>`, `<script>`. */
  where: string;
}

const ALWAYS_FETCHED = new Set(['src', 'poster', 'background', 'manifest']);
const NAVIGATION_RELS = new Set(
  'canonical alternate author license help next prev me bookmark search external nofollow noopener noreferrer opener tag privacy-policy terms-of-service'.split(
    ' ',
  ),
);
/** SVG attributes that take a paint or reference, where `url(…)` fetches another document. */
const SVG_PAINT = new Set(
  'fill stroke filter mask clip-path marker-start marker-mid marker-end cursor'.split(' '),
);
/** Script types the browser runs; any other `type` is a data block. */
const SCRIPT_TYPES = /^(?:|module|(?:text|application)\/(?:x-)?(?:java|ecma)script(?:;.*)?)$/i;

/** Every external URL the page fetches, in page order. */
export function htmlExternalRefs(html: string): ExternalRef[] {
  return elementsOf(html).flatMap(elementRefs);
}

function elementsOf(html: string): Element[] {
  const out: Element[] = [];
  // Iterative, depth first in page order: a page may nest deeper than the call stack goes.
  const pending: ParentNode[] = [parse(html)];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    const children: ParentNode[] = [];
    for (const child of node.childNodes) {
      if (!('tagName' in child)) continue;
      out.push(child);
      children.push('content' in child ? (child.content as ParentNode) : child);
    }
    pending.push(...children.reverse());
  }
  return out;
}

function elementRefs(e: Element): ExternalRef[] {
  const tag = `<${e.tagName}`;
  const refs: ExternalRef[] = [];
  const add = (where: string, urls: readonly string[]): void => {
    for (const url of urls) if (isExternalUrl(url)) refs.push({ url, where });
  };
  const svg = e.namespaceURI === HTML.NS.SVG;
  for (const a of e.attrs) {
    const name = a.name;
    if (ALWAYS_FETCHED.has(name) || (name === 'data' && e.tagName === 'object'))
      add(`${tag} ${name}>`, [a.value]);
    else if (name === 'srcset' || name === 'imagesrcset') add(`${tag} ${name}>`, srcsetUrls(a.value));
    else if (name === 'ping') add(`${tag} ping>`, a.value.split(/\s+/));
    else if (name === 'style' || (svg && SVG_PAINT.has(name)))
      add(`CSS in ${tag} ${name}>`, cssUrls(a.value));
    else if (name === 'srcdoc')
      refs.push(...htmlExternalRefs(a.value).map((r) => ({ ...r, where: `${r.where} in ${tag} srcdoc>` })));
    else if ((name === 'href' || name === 'xlink:href') && hrefFetches(e, svg))
      add(`${tag} ${name}>`, [a.value]);
  }
  const text = e.childNodes.map((n) => (n.nodeName === '#text' && 'value' in n ? n.value : '')).join('');
  if (e.tagName === 'style') add('CSS in <style>', cssUrls(text));
  if (e.tagName === 'script') {
    const type = (attr(e, 'type') ?? '').trim();
    if (type.toLowerCase() === 'importmap') add('<script type=importmap>', jsonUrls(text));
    else if (SCRIPT_TYPES.test(type)) add('<script>', scriptUrls(text));
  }
  if (e.tagName === 'meta' && (attr(e, 'http-equiv') ?? '').toLowerCase() === 'refresh')
    add('<meta http-equiv=refresh>', [/url\s*=\s*['"]?([^'"]*)/i.exec(attr(e, 'content') ?? '')?.[1] ?? '']);
  return refs;
}

/** Whether this element's href is fetched: a stylesheet or icon link, a base, an SVG reference. */
function hrefFetches(e: Element, svg: boolean): boolean {
  if (svg) return e.tagName !== 'a';
  if (e.tagName === 'base') return true;
  if (e.tagName !== 'link') return false;
  const rels = (attr(e, 'rel') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  return rels.some((r) => !NAVIGATION_RELS.has(r));
}

function attr(e: Element, name: string): string | undefined {
  return e.attrs.find((a) => a.name === name)?.value;
}

/**
 * The URLs of a `srcset`, as the HTML standard splits it: candidates between commas, each a URL up
 * to the next space (so a `data:` URL keeps its comma) and descriptors that may hold commas in brackets.
 */
export function srcsetUrls(srcset: string): string[] {
  const out: string[] = [];
  let at = 0;
  while (at < srcset.length) {
    while (/[\s,]/.test(srcset[at] ?? '')) at++;
    if (at >= srcset.length) break;
    const start = at;
    while (at < srcset.length && !/\s/.test(srcset[at] ?? '')) at++;
    let url = srcset.slice(start, at);
    if (url.endsWith(',')) {
      url = url.replace(/,+$/, '');
    } else {
      let depth = 0;
      for (; at < srcset.length; at++) {
        const c = srcset[at];
        if (c === '(') depth++;
        else if (c === ')') depth = Math.max(0, depth - 1);
        else if (c === ',' && depth === 0) break;
      }
    }
    out.push(url);
  }
  return out;
}
