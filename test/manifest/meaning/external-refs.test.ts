/**
 * no_external: every URL form that fetches from elsewhere is found (scheme-relative, backslashed,
 * entity- and CSS-escaped, @import, srcset, url(), scripts), and what fetches nothing is not (links
 * the reader follows, data: URIs, relative paths, xmlns names, data blocks, comments).
 */
import { describe, expect, it } from 'vitest';
import { cssUrls } from '../../../src/manifest/meaning/css-urls.js';
import { externalRefs, noExternalProblem } from '../../../src/manifest/meaning/external-refs.js';
import { isExternalUrl } from '../../../src/manifest/meaning/external-url.js';
import { srcsetUrls } from '../../../src/manifest/meaning/html-resources.js';

const page = (head: string, body = '') =>
  `<!DOCTYPE html><html><head><title>t</title>${head}</head><body>${body}</body></html>`;
const urls = (html: string) => externalRefs('index.html', html).map((r) => r.url);

describe('what an external URL is', () => {
  it('names a host, however it is written', () => {
    for (const u of [
      'https://cdn.example/a.css',
      'HTTP://cdn.example',
      '//cdn.example/a.css',
      ' //cdn.example/a.css ',
      '/\\cdn.example/a.css',
      '\\\\cdn.example\\a.css',
      '/\t/cdn.example/a.css',
      'ftp://files.example/x',
      'file:///etc/passwd',
      'https:cdn.example/a.css',
      'wss://live.example/feed',
      'chrome-extension://abc/x.js',
    ])
      expect(isExternalUrl(u), u).toBe(true);
  });

  it('is not a relative path, a fragment, nor a URL of inline content', () => {
    for (const u of [
      'img/a.png',
      './a.css',
      '../shared/a.css',
      '/a.css',
      '#top',
      '?q=1',
      'data:image/png;base64,AAAA',
      'blob:https://origin.example/1234',
      'mailto:hello@aurora-roasters.example',
      'tel:+15035550100',
      'javascript:void(0)',
      '',
      '//',
    ])
      expect(isExternalUrl(u), u).toBe(false);
  });
});

describe('a page', () => {
  it('finds a protocol-relative stylesheet, an icon and a preload', () => {
    expect(urls(page('<link rel="stylesheet" href="//fonts.example/a.css">'))).toEqual([
      '//fonts.example/a.css',
    ]);
    expect(urls(page('<link rel="icon" href="https://cdn.example/f.ico">'))).toHaveLength(1);
    expect(urls(page('<link rel="alternate stylesheet" href="//x.example/b.css">'))).toHaveLength(1);
    expect(urls(page('<link rel="preload" as="font" href="//x.example/f.woff2">'))).toHaveLength(1);
  });

  it('reads attributes as the browser does: entities decoded', () => {
    expect(urls(page('<link rel="stylesheet" href="&#47;&#47;cdn.example/a.css">'))).toEqual([
      '//cdn.example/a.css',
    ]);
    expect(urls(page('', '<img src="&#x2F;/cdn.example/a.png" alt="">'))).toEqual(['//cdn.example/a.png']);
  });

  it('finds src, srcset, poster, object data, ping, base and a refresh', () => {
    expect(urls(page('', '<img src="a.png" srcset="a.png 1x, //cdn.example/a@2x.png 2x" alt="">'))).toEqual([
      '//cdn.example/a@2x.png',
    ]);
    expect(
      urls(
        page('', '<picture><source srcset="https://cdn.example/a.webp"><img src="a.png" alt=""></picture>'),
      ),
    ).toHaveLength(1);
    expect(urls(page('', '<video src="v.mp4" poster="//img.example/p.jpg"></video>'))).toEqual([
      '//img.example/p.jpg',
    ]);
    expect(urls(page('', '<iframe src="https://maps.example/embed"></iframe>'))).toHaveLength(1);
    expect(urls(page('', '<object data="//x.example/a.swf"></object>'))).toHaveLength(1);
    expect(urls(page('', '<a href="#x" ping="https://track.example/p">x</a>'))).toHaveLength(1);
    expect(urls(page('<base href="https://cdn.example/">'))).toHaveLength(1);
    expect(urls(page('<meta http-equiv="refresh" content="0; url=https://elsewhere.example/">'))).toEqual([
      'https://elsewhere.example/',
    ]);
  });

  it('finds the CSS of <style>, style attributes and SVG paint, and a srcdoc page', () => {
    expect(urls(page('<style>@import "//fonts.example/a.css"; body { color: red }</style>'))).toEqual([
      '//fonts.example/a.css',
    ]);
    expect(urls(page('', '<div style="background: url(//img.example/bg.jpg)">x</div>'))).toEqual([
      '//img.example/bg.jpg',
    ]);
    expect(
      urls(page('', '<svg><rect fill="url(https://x.example/p.svg#g)" width="1" height="1"/></svg>')),
    ).toHaveLength(1);
    expect(
      urls(
        page(
          '',
          '<svg><use href="//icons.example/s.svg#a"/><image xlink:href="https://x.example/i.png"/></svg>',
        ),
      ),
    ).toHaveLength(2);
    expect(urls(page('', '<iframe srcdoc="<img src=&quot;//x.example/i.png&quot;>"></iframe>'))).toEqual([
      '//x.example/i.png',
    ]);
  });

  it('finds what a script fetches: fetch, XHR, import(), module imports, templates, src', () => {
    const script = (code: string, type = '') => urls(page(`<script${type}>${code}</script>`));
    expect(script("fetch('//api.example/s.json').then((r) => r.json())")).toEqual(['//api.example/s.json']);
    expect(script('const x = new XMLHttpRequest(); x.open("GET", "https://api.example/s");')).toHaveLength(1);
    expect(script("import('https://cdn.example/m.js')")).toHaveLength(1);
    expect(script("import { a } from '//cdn.example/m.js';", ' type="module"')).toHaveLength(1);
    expect(script('const u = `https://${host}/x`;')).toEqual(['https://']);
    expect(urls(page('<script src="//cdn.example/chart.js"></script>'))).toEqual(['//cdn.example/chart.js']);
    expect(
      urls(page('<script type="importmap">{"imports": {"vue": "https://cdn.example/vue.js"}}</script>')),
    ).toEqual(['https://cdn.example/vue.js']);
  });

  it('lets pass what fetches nothing: links, mailto, data: URIs, inline SVG, xmlns, comments, data blocks', () => {
    const body = `
      <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">
        <defs><linearGradient id="g"><stop offset="0"/></linearGradient></defs>
        <rect fill="url(#g)" width="10" height="10"/><use href="#g"/>
      </svg>
      <a href="https://aurora-roasters.example/shop">Shop</a>
      <a href="mailto:hello@aurora-roasters.example">mail</a>
      <form action="https://orders.example/new"><button>Order</button></form>
      <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="" srcset="data:image/png;base64,iVBOR,AAA 2x">
      <img src="img/beans.png" alt=""><img src="/static/a.png" alt="">
      <!-- <link rel="stylesheet" href="https://cdn.example/old.css"> -->`;
    const head = `
      <link rel="canonical" href="https://aurora-roasters.example/">
      <link rel="alternate" hreflang="de" href="https://aurora-roasters.example/de/">
      <style>/* url(https://cdn.example/x.png) */ .a { background: url("data:image/svg+xml,%3Csvg%3E%3C/svg%3E") }
        @namespace svg url(http://www.w3.org/2000/svg);</style>
      <script type="application/ld+json">{"@context": "https://schema.org", "@type": "Organization"}</script>
      <script>
        // see https://developer.example/docs for why
        const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
        const path = "//"; const note = "Note: a to-do list";
      </script>`;
    expect(externalRefs('index.html', page(head, body))).toEqual([]);
  });

  it('says where each URL is asked for', () => {
    expect(externalRefs('index.html', page('<link rel="stylesheet" href="//a.example/x.css">'))).toEqual([
      { url: '//a.example/x.css', where: '<link href>' },
    ]);
  });
});

describe('a stylesheet, by the CSS scanner', () => {
  it('reads url() quoted or not, @import, image-set and src(), in any case', () => {
    expect(cssUrls('a { background: url(//x.example/a.png) }')).toEqual(['//x.example/a.png']);
    expect(cssUrls("a { background: URL( 'b.png' ) }")).toEqual(['b.png']);
    expect(cssUrls('@import "https://x.example/a.css" screen;')).toEqual(['https://x.example/a.css']);
    expect(cssUrls('@import url("//x.example/a.css");')).toEqual(['//x.example/a.css']);
    expect(cssUrls('a { background: image-set("a.png" 1x, "//x.example/a2.png" 2x) }')).toEqual([
      'a.png',
      '//x.example/a2.png',
    ]);
    expect(cssUrls('@font-face { font-family: X; src: url(x.woff2) format("woff2"), local(X) }')).toEqual([
      'x.woff2',
    ]);
  });

  it('decodes escapes in the function name and the URL', () => {
    expect(cssUrls('a { background: \\75 rl(//x.example/a.png) }')).toEqual(['//x.example/a.png']);
    expect(cssUrls('a { background: url("\\2f\\2f x.example/a.png") }')).toEqual(['//x.example/a.png']);
    expect(cssUrls('a { background: url(\\2f\\2fx.example/a.png) }')).toEqual(['//x.example/a.png']);
  });

  it('skips comments, strings that are no URL, and @namespace', () => {
    expect(cssUrls('/* @import "//x.example/a.css"; */ a { content: "//not-a-fetch" }')).toEqual([]);
    expect(cssUrls('@namespace svg url(http://www.w3.org/2000/svg); a { font-family: "Inter" }')).toEqual([]);
  });

  it('judges .css and .js artifacts by their own readers, and refuses other kinds at load', () => {
    expect(externalRefs('site.css', '@import url(//x.example/a.css);').map((r) => r.url)).toEqual([
      '//x.example/a.css',
    ]);
    expect(externalRefs('app.mjs', 'await fetch("//api.example/x")').map((r) => r.url)).toEqual([
      '//api.example/x',
    ]);
    expect(noExternalProblem('out/page.html')).toBeNull();
    expect(noExternalProblem('out/report.md')).toMatch(/^no_external reads pages, SVG, CSS and JavaScript/);
  });
});

describe('srcset, as the HTML standard splits it', () => {
  it('keeps the comma of a data: URL and the brackets of a descriptor', () => {
    expect(srcsetUrls('a.png 1x, b.png 2x')).toEqual(['a.png', 'b.png']);
    expect(srcsetUrls('data:image/png;base64,AA,BB 1x, //x.example/c.png 2x')).toEqual([
      'data:image/png;base64,AA,BB',
      '//x.example/c.png',
    ]);
    expect(srcsetUrls('a.png,b.png')).toEqual(['a.png,b.png']);
    expect(srcsetUrls('a.png, ,b.png 100w')).toEqual(['a.png', 'b.png']);
  });
});
