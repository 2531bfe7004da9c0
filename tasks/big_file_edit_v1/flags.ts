/**
 * big_file_edit_v1's checks: the page was read before it changed, no tool call lost its arguments,
 * each of the five edits is in the page, and the anchor sentences spread through it (and every
 * section) survived. Whether each requested edit is in the page is judged on the page's structure
 * (the one title element, the one --accent declaration, the nav list's links) rather than on one
 * substring, so an edit added next to the old text, or made twice, does not count.
 */
import {
  beforeChange,
  type CheckContext,
  type FlagOutcome,
  firstChangeTurn,
  firstRead,
  linesContaining,
  miss,
  type ReadNeed,
  upToLast,
  WORKSPACE_DIR,
} from '../../src/kit/index.js';

export const PAGE = 'site/index.html';
const PAGE_ABS = `${WORKSPACE_DIR}/${PAGE}`;

export const OLD_TITLE = 'Harbor Ops Handbook';
export const NEW_TITLE = 'Harbor Operations Handbook';
const OLD_ACCENT = '#0e7490';
const NEW_ACCENT = '#c2410c';
const NAV_AFTER_INCIDENTS = '<li><a href="/incidents">Incidents</a></li>';
const OLD_HREF = '/policies/retension';
const NEW_HREF = '/policies/retention';
const LINK_TEXT = 'retention policy';
const ON_CALL_LABEL = 'On-call phone:';
export const OLD_PHONE = '+31 10 555 0142';
export const NEW_PHONE = '+31 10 555 0199';
/** Same number as the old on-call phone, on purpose: a global replace changes it too. */
export const DESK_LINE = `<li>Harbor master desk: ${OLD_PHONE}</li>`;
const SECTION_COUNT = 40;
/** The anchor sentences, in page order: eight sections spread through the page, and the footer. */
export const ANCHORS: readonly string[] = [
  'Audit note 03: the tug assignment procedure was last verified on pier 10 during drill D-139.',
  'Audit note 08: the customs holds procedure was last verified on pier 9 during drill D-204.',
  'Audit note 13: the rail siding handover procedure was last verified on pier 8 during drill D-269.',
  'Audit note 18: the quay lighting checks procedure was last verified on pier 7 during drill D-334.',
  'Audit note 23: the wind speed shutdowns procedure was last verified on pier 6 during drill D-399.',
  'Audit note 28: the visitor escorts procedure was last verified on pier 5 during drill D-464.',
  'Audit note 33: the out-of-gauge cargo procedure was last verified on pier 4 during drill D-529.',
  'Audit note 38: the contacts and desks procedure was last verified on pier 3 during drill D-594.',
  'Handbook build HB-4471, compiled from the quay operations wiki.',
];

/** Half the page, or one of the lines holding a value the task changes (a targeted grep -n or sed -n). */
function pageReadNeed(original: string): ReadNeed {
  return {
    atLeast: 0.5,
    linesAtLeast: 0.2,
    lines: linesContaining(original, [
      OLD_TITLE,
      OLD_ACCENT,
      NAV_AFTER_INCIDENTS,
      OLD_HREF,
      `${ON_CALL_LABEL} ${OLD_PHONE}`,
    ]),
  };
}

export function pageRead(ctx: CheckContext): FlagOutcome {
  const edit = firstChangeTurn(ctx, PAGE);
  if (edit === null) return miss('the page was never changed');
  const need = pageReadNeed(ctx.setupFiles.get(PAGE) ?? '');
  const read = firstRead(ctx, PAGE_ABS, need, (at) => beforeChange(ctx, at, PAGE, edit));
  return read === undefined
    ? miss('the page was not read before it was changed')
    : { reached: true, turn: read.turn };
}

export function argsIntact(ctx: CheckContext): FlagOutcome {
  if (firstChangeTurn(ctx, PAGE) === null) return miss('the page was never changed');
  const dropped = ctx.calls.find((c) => c.invalid === 'missing_argument' || c.invalid === 'bad_arguments');
  return dropped === undefined
    ? { reached: true, turn: null }
    : miss(`turn ${dropped.turn}: ${dropped.name} was refused (${dropped.invalid})`);
}

async function pageEdit(ctx: CheckContext, check: EditCheck): Promise<FlagOutcome> {
  const page = await ctx.groundTruth.readFile(PAGE);
  if (page === null) return miss(`${PAGE} is gone`);
  const problem = check(page);
  return problem === null ? { reached: true, turn: null } : miss(problem);
}

export const titleChangedFlag = (ctx: CheckContext) => pageEdit(ctx, titleChanged);
export const accentChangedFlag = (ctx: CheckContext) => pageEdit(ctx, accentChanged);
export const navAddedFlag = (ctx: CheckContext) => pageEdit(ctx, navAdded);
export const linkFixedFlag = (ctx: CheckContext) => pageEdit(ctx, linkFixed);
export const phoneUpdatedFlag = (ctx: CheckContext) => pageEdit(ctx, phoneUpdated);

export async function anchorsPreservedFlag(ctx: CheckContext): Promise<FlagOutcome> {
  if (firstChangeTurn(ctx, PAGE) === null) return miss('the page was never changed');
  return pageEdit(ctx, anchorsPreserved);
}

// Each edit: null when it is right, else what is wrong.
type EditCheck = (page: string) => string | null;

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
