/**
 * `no_external`: what an artifact fetches from elsewhere, read by its kind: a page or SVG image
 * (html-resources.ts), a stylesheet (css-urls.ts), a script (script-urls.ts). Other kinds have no
 * reader here, and the manifest is refused for asking (noExternalProblem), rather than judged by a
 * search for `http` that a scheme-relative URL escapes.
 */
import { cssUrls } from './css-urls.js';
import { isExternalUrl } from './external-url.js';
import { type ExternalRef, htmlExternalRefs } from './html-resources.js';
import { scriptUrls } from './script-urls.js';
import { isHtmlFile } from './visible-text.js';

const isCss = (file: string): boolean => /\.css$/i.test(file);
const isScript = (file: string): boolean => /\.[cm]?js$/i.test(file);

/** Why `no_external` cannot judge this file, or null when it can. */
export function noExternalProblem(file: string): string | null {
  return isHtmlFile(file) || isCss(file) || isScript(file)
    ? null
    : `no_external reads pages, SVG, CSS and JavaScript (.html, .htm, .xhtml, .svg, .css, .js, .mjs, .cjs), not ${file}`;
}

/** Every external URL the artifact fetches, with where it asks for it. */
export function externalRefs(file: string, text: string): ExternalRef[] {
  if (isHtmlFile(file)) return htmlExternalRefs(text);
  if (isCss(file))
    return cssUrls(text)
      .filter(isExternalUrl)
      .map((url) => ({ url, where: 'CSS' }));
  return scriptUrls(text).map((url) => ({ url, where: 'a string of the script' }));
}
