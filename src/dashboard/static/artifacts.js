// A trial's artifacts: HTML in a sandboxed iframe (scripts may run, but in an opaque origin, without
// same-origin access, top navigation, popups or network), images inline, text on demand, the rest as downloads.
import { append, el } from './dom.js';

/** @typedef {{ path: string, size: number | null, kind: string, url: string, missing: boolean }} Artifact */

const TEXT_PREVIEW_LIMIT = 200_000;

/** @param {HTMLElement} box @param {Artifact[]} artifacts */
export function renderArtifacts(box, artifacts) {
  if (artifacts.length === 0) {
    append(box, el('p', { class: 'muted small' }, 'No artifacts were exported for this trial.'));
    return;
  }
  const section = el(
    'div',
    { class: 'panel artifacts' },
    el('strong', {}, `Artifacts (${artifacts.length})`),
  );
  for (const a of artifacts) {
    const open = a.missing
      ? null
      : el('a', { href: a.url, target: '_blank', rel: 'noopener noreferrer' }, 'open');
    const download = a.missing ? null : el('a', { href: `${a.url}?download=1`, download: '' }, 'download');
    const size = a.size === null ? '' : ` · ${a.size} bytes`;
    append(
      section,
      el(
        'div',
        { class: 'small' },
        el('code', {}, a.path),
        size,
        a.missing ? ' · missing on disk' : ' · ',
        open,
        ' ',
        download,
      ),
    );
  }
  const firstHtml = artifacts.find((a) => a.kind === 'html' && !a.missing);
  const firstImage = artifacts.find((a) => a.kind === 'image' && !a.missing);
  const firstText = artifacts.find((a) => a.kind === 'text' && !a.missing);
  const shown = firstHtml ?? firstImage ?? firstText;
  if (shown !== undefined) append(section, preview(shown));
  append(box, section);
}

/** @param {Artifact} a @returns {HTMLElement} */
export function preview(a) {
  if (a.kind === 'html') {
    // No allow-same-origin and no allow-top-navigation: the page runs in an opaque origin of its own.
    return el('iframe', {
      class: 'artifact',
      sandbox: 'allow-scripts',
      src: a.url,
      title: a.path,
      loading: 'lazy',
    });
  }
  if (a.kind === 'image') return el('img', { class: 'artifact', src: a.url, alt: a.path, loading: 'lazy' });
  if (a.kind === 'text') {
    const pre = el('pre', {}, 'loading…');
    fetch(a.url)
      .then((res) => res.text())
      .then((text) => {
        pre.textContent =
          text.length > TEXT_PREVIEW_LIMIT ? `${text.slice(0, TEXT_PREVIEW_LIMIT)}\n… (cut)` : text;
      })
      .catch(() => {
        pre.textContent = 'could not load';
      });
    return pre;
  }
  return el('p', { class: 'muted small' }, `${a.path}: binary file, use download`);
}
