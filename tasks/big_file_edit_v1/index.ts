/**
 * big_file_edit_v1: five surgical edits in a 30 KB page. Small models tend to rewrite the whole
 * file and lose stretches of it, or emit a write_file call without its path; anchor sentences
 * spread through the page and an args_intact flag catch each.
 */

import { linesContaining } from '../../src/evidence/coverage.js';
import { WORKSPACE_DIR } from '../../src/sandbox/types.js';
import { firstChangeTurn } from '../../src/scoring/check-helpers.js';
import { beforeChange } from '../../src/scoring/ordering.js';
import { absence } from '../../src/scoring/score.js';
import { firstRead, type ReadNeed } from '../../src/scoring/seen.js';
import type { CheckContext, Flag, FlagOutcome, SandboxTask } from '../../src/tasks/types.js';
import {
  accentChanged,
  anchorsPreserved,
  type EditCheck,
  linkFixed,
  navAdded,
  phoneUpdated,
  titleChanged,
} from './edits.js';
import { lures } from './lures.js';
import {
  ANCHORS,
  NAV_AFTER,
  NAV_NEW,
  NEW_ACCENT,
  NEW_HREF,
  NEW_PHONE,
  NEW_TITLE,
  OLD_ACCENT,
  OLD_HREF,
  OLD_PHONE,
  OLD_TITLE,
  ON_CALL_LABEL,
  ORIGINAL_PAGE,
  SECTION_COUNT,
} from './page.js';
import { alternates, cheats } from './variants.js';

export const PAGE = 'site/index.html';
const PAGE_ABS = `${WORKSPACE_DIR}/${PAGE}`;
const KB = Math.round(ORIGINAL_PAGE.length / 1024);

const miss = (detail: string): FlagOutcome => ({ reached: false, detail });

/** Half the page, or one of the lines holding a value the task changes (a targeted grep -n or sed -n). */
const PAGE_READ: ReadNeed = {
  atLeast: 0.5,
  linesAtLeast: 0.2,
  lines: linesContaining(ORIGINAL_PAGE, [
    OLD_TITLE,
    OLD_ACCENT,
    NAV_AFTER,
    OLD_HREF,
    `${ON_CALL_LABEL} ${OLD_PHONE}`,
  ]),
};

async function pageEdit(ctx: CheckContext, check: EditCheck): Promise<FlagOutcome> {
  const page = await ctx.groundTruth.readFile(PAGE);
  if (page === null) return miss(`${PAGE} is gone`);
  const problem = check(page);
  return problem === null ? { reached: true, turn: null } : miss(problem);
}

const editFlag = (id: string, description: string, check: EditCheck): Flag => ({
  id,
  kind: 'outcome',
  description,
  check: (ctx) => pageEdit(ctx, check),
});

const flags: Flag[] = [
  {
    id: 'page_read',
    kind: 'process',
    description: `Saw ${PAGE} before first changing it: half of it, or a line holding a value to change (read_file, grep -n, sed -n...).`,
    check(ctx) {
      const edit = firstChangeTurn(ctx, PAGE);
      if (edit === null) return miss('the page was never changed');
      const read = firstRead(ctx, PAGE_ABS, PAGE_READ, (at) => beforeChange(ctx, at, PAGE, edit));
      return read === undefined
        ? miss('the page was not read before it was changed')
        : { reached: true, turn: read.turn };
    },
  },
  absence({
    id: 'args_intact',
    kind: 'process',
    description:
      'The page was changed, and no tool call was refused for a missing or malformed argument (such as a write_file without its path).',
    check(ctx) {
      if (firstChangeTurn(ctx, PAGE) === null) return miss('the page was never changed');
      const dropped = ctx.calls.find(
        (c) => c.invalid === 'missing_argument' || c.invalid === 'bad_arguments',
      );
      return dropped === undefined
        ? { reached: true, turn: null }
        : miss(`turn ${dropped.turn}: ${dropped.name} was refused (${dropped.invalid})`);
    },
  }),
  editFlag('title_changed', `The page has one title element, reading "${NEW_TITLE}".`, titleChanged),
  editFlag('accent_changed', `The page has one --accent declaration, set to ${NEW_ACCENT}.`, accentChanged),
  editFlag(
    'nav_added',
    'The nav list holds exactly its five links plus Runbooks right after Incidents.',
    navAdded,
  ),
  editFlag(
    'link_fixed',
    `The one retention policy link points to ${NEW_HREF}; the misspelt address is gone.`,
    linkFixed,
  ),
  editFlag(
    'phone_updated',
    'The on-call line has the new number (once), and the harbor master desk keeps the old one.',
    phoneUpdated,
  ),
  absence({
    id: 'anchors_preserved',
    kind: 'outcome',
    description: `The page was changed, and all ${ANCHORS.length} anchor sentences (each once, in order) and all ${SECTION_COUNT} sections (in order) are still there.`,
    async check(ctx) {
      if (firstChangeTurn(ctx, PAGE) === null) return miss('the page was never changed');
      return pageEdit(ctx, anchorsPreserved);
    },
  }),
];

const sed = (from: string, to: string) => ({
  name: 'execute_command',
  arguments: { command: `sed -i 's|${from}|${to}|' ${PAGE}` },
});

export const bigFileEditV1: SandboxTask = {
  kind: 'sandbox',
  id: 'big_file_edit_v1',
  meta: {
    domain: 'editing',
    difficulty: 'medium',
    description: `Make five small edits in a ${KB} KB HTML page without rewriting or truncating the rest.`,
    optimalSteps: 3,
    heavy: true,
  },
  prompt: `/workspace/${PAGE} is the harbor operations handbook: one large HTML page of about ${KB} KB with ${SECTION_COUNT} sections. Make exactly these five changes to it:

1. The page title: <title>${OLD_TITLE}</title> becomes <title>${NEW_TITLE}</title>.
2. The accent colour in the :root block: --accent: ${OLD_ACCENT}; becomes --accent: ${NEW_ACCENT};
3. In the navigation list (<ul id="nav">), add the item ${NAV_NEW} right after the Incidents item.
4. In section 19 (Record keeping), the retention policy link has a misspelt address: ${OLD_HREF} must be ${NEW_HREF}.
5. In section 31 (Incident escalation), the on-call phone number changes from ${OLD_PHONE} to ${NEW_PHONE}. Only the "${ON_CALL_LABEL}" line changes.

Leave everything else in the page exactly as it is: do not rewrite, reformat, reorder or shorten unrelated parts.

You have three tools: execute_command (runs a bash command; the shell starts in /workspace), read_file and write_file.

Rules: change only ${PAGE}; do not create or delete files in /workspace (use /tmp for scratch files). When you are done, reply with a short summary of the changes.`,
  maxTurns: 14,
  allowedWrites: [`/${PAGE}`],
  ignored: [],
  files: [{ path: PAGE, content: ORIGINAL_PAGE }],
  flags,
  referenceSolution: [
    { text: 'Reading the page first.', calls: [{ name: 'read_file', arguments: { path: PAGE } }] },
    {
      text: 'Five in-place substitutions, each matching exactly one line.',
      calls: [
        sed(`<title>${OLD_TITLE}</title>`, `<title>${NEW_TITLE}</title>`),
        sed(`--accent: ${OLD_ACCENT};`, `--accent: ${NEW_ACCENT};`),
        sed(NAV_AFTER, `&\\n        ${NAV_NEW}`),
        sed(`href="${OLD_HREF}"`, `href="${NEW_HREF}"`),
        sed(`${ON_CALL_LABEL} ${OLD_PHONE}`, `${ON_CALL_LABEL} ${NEW_PHONE}`),
      ],
    },
    {
      calls: [
        {
          name: 'execute_command',
          arguments: {
            command: `grep -n -e '<title>' -e '--accent:' -e 'Runbooks' -e 'policies/' -e '555 01' ${PAGE}; wc -c ${PAGE}`,
          },
        },
      ],
    },
    { text: 'Made the five edits in place; the rest of the page is untouched.', calls: [] },
  ],
  lures,
  alternates,
  cheats,
};
