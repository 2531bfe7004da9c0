/**
 * Whether each requested edit is in the page, judged on the page's structure (the one title
 * element, the one --accent declaration, the nav list's links) rather than on one substring, so
 * an edit added next to the old text, or made twice, does not count.
 */
import { upToLast } from '../../src/util/up-to-last.js';
import {
  ANCHORS,
  DESK_LINE,
  LINK_TEXT,
  NEW_ACCENT,
  NEW_HREF,
  NEW_PHONE,
  NEW_TITLE,
  OLD_HREF,
  OLD_PHONE,
  ON_CALL_LABEL,
  SECTION_COUNT,
} from './page.js';

/** null when the edit is right, else what is wrong. */
export type EditCheck = (page: string) => string | null;

const count = (text: string, needle: string): number => text.split(needle).length - 1;

export const titleChanged: EditCheck = (page) => {
  const titles = [...upToLast(page, /<\/title>/gi).matchAll(/<title>([\s\S]*?)<\/title>/gi)].map((m) =>
    (m[1] ?? '').trim(),
  );
  if (titles.length !== 1) return `${titles.length} title elements`;
  return titles[0] === NEW_TITLE ? null : `the title is "${titles[0]}"`;
};

export const accentChanged: EditCheck = (page) => {
  const values = [...upToLast(page, /;/g).matchAll(/--accent\s*:\s*([^;]*);/g)].map((m) =>
    (m[1] ?? '').trim().toLowerCase(),
  );
  if (values.length !== 1) return `${values.length} --accent declarations`;
  return values[0] === NEW_ACCENT ? null : `--accent is ${values[0]}`;
};

const NAV_AFTER: readonly (readonly [string, string])[] = [
  ['/', 'Home'],
  ['/berths', 'Berths'],
  ['/cranes', 'Cranes'],
  ['/incidents', 'Incidents'],
  ['/runbooks', 'Runbooks'],
  ['/contacts', 'Contacts'],
];

export const navAdded: EditCheck = (page) => {
  const lists = [...upToLast(page, /<\/ul>/g).matchAll(/<ul id="nav">([\s\S]*?)<\/ul>/g)];
  if (lists.length !== 1) return `${lists.length} nav lists`;
  const links = [...(lists[0]?.[1] ?? '').matchAll(/<li>\s*<a href="([^"]*)">([^<]*)<\/a>\s*<\/li>/g)].map(
    (m) => `${m[1]} ${m[2]?.trim()}`,
  );
  const want = NAV_AFTER.map(([href, label]) => `${href} ${label}`);
  return links.join('|') === want.join('|') ? null : `nav links are: ${links.join(', ')}`;
};

export const linkFixed: EditCheck = (page) => {
  if (page.includes(OLD_HREF)) return 'the misspelt address is still there';
  const hrefs = [...page.matchAll(/<a href="([^"]*)">([^<]*)<\/a>/g)]
    .filter((m) => m[2] === LINK_TEXT)
    .map((m) => m[1]);
  if (hrefs.length !== 1) return `${hrefs.length} "${LINK_TEXT}" links`;
  return hrefs[0] === NEW_HREF ? null : `the link points to ${hrefs[0]}`;
};

export const phoneUpdated: EditCheck = (page) => {
  if (count(page, `${ON_CALL_LABEL} ${NEW_PHONE}`) !== 1)
    return 'the on-call line does not have the new number once';
  if (page.includes(`${ON_CALL_LABEL} ${OLD_PHONE}`)) return 'the old on-call number is still there';
  return count(page, DESK_LINE) === 1 ? null : 'the harbor master desk number was changed too';
};

/** Every anchor sentence once, in order, and every section once, in order. */
export const anchorsPreserved: EditCheck = (page) => {
  let at = 0;
  for (const [i, anchor] of ANCHORS.entries()) {
    const found = page.indexOf(anchor);
    if (found < 0 || count(page, anchor) !== 1)
      return `anchor ${i + 1} of ${ANCHORS.length} is missing or repeated`;
    if (found < at) return `anchor ${i + 1} is out of order`;
    at = found;
  }
  const ids = [...page.matchAll(/<section id="s(\d+)"/g)].map((m) => Number(m[1]));
  const want = Array.from({ length: SECTION_COUNT }, (_, i) => i + 1);
  return ids.join(',') === want.join(',')
    ? null
    : `${ids.length} of ${SECTION_COUNT} sections, in this order`;
};
