/**
 * The URLs a script holds: every string it writes (string literals, the fixed parts of template
 * literals, `import … from '…'` and `import('…')` among them), read from its syntax tree
 * (@babel/parser), so a URL in a comment is no URL. A script can fetch any string it holds (`fetch`,
 * `XMLHttpRequest`, `import()`, an element's `src`), so which call gets it does not matter; the
 * names of XML namespaces (`createElementNS("http://www.w3.org/2000/svg", …)`) are names, never
 * fetched. A script babel cannot read at all is searched for URLs as text.
 */
import type { Node } from '@babel/types';
import { nodesOf, parseSource } from '../../scoring/js-ast.js';
import { isExternalUrl } from './external-url.js';

const NAMESPACES = new Set([
  'http://www.w3.org/2000/svg',
  'http://www.w3.org/1999/xhtml',
  'http://www.w3.org/1999/xlink',
  'http://www.w3.org/1998/Math/MathML',
  'http://www.w3.org/XML/1998/namespace',
  'http://www.w3.org/2000/xmlns/',
]);

/** The external URLs of a script. */
export function scriptUrls(code: string): string[] {
  const parsed = parseSource(code, { typescript: false });
  const strings = parsed === null ? urlsInText(code) : nodesOf(parsed.ast).flatMap(stringsOf);
  return strings.filter((s) => isExternalUrl(s) && !NAMESPACES.has(s.trim()));
}

function stringsOf(node: Node): string[] {
  if (node.type === 'StringLiteral') return [node.value];
  if (node.type === 'TemplateElement') return [node.value.cooked ?? node.value.raw];
  return [];
}

/** What looks like an absolute or quoted scheme-relative URL in text that is no readable script. */
function urlsInText(code: string): string[] {
  const absolute = code.match(/\b(?:https?|wss?|ftps?|file):\/\/[^\s'"`<>)]*/gi) ?? [];
  const relative = [...code.matchAll(/['"`](\/\/[A-Za-z0-9][^\s'"`]*)/g)].map((m) => m[1] ?? '');
  return [...absolute, ...relative];
}

/** The external URLs among the string values of a JSON text (an import map); none if it is no JSON. */
export function jsonUrls(text: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  const out: string[] = [];
  const pending: unknown[] = [value];
  for (let v = pending.pop(); v !== undefined; v = pending.pop()) {
    if (typeof v === 'string' && isExternalUrl(v)) out.push(v);
    else if (typeof v === 'object' && v !== null) pending.push(...Object.values(v));
  }
  return out;
}
