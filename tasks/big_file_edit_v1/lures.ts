/** Scripted runs of the ways a large-file edit goes wrong, and the flags each must miss. */

import type { ScriptedCall } from '../../src/models/scripted.js';
import type { Lure } from '../../src/tasks/types.js';
import {
  EDITED_PAGE,
  NAV_AFTER,
  NAV_NEW,
  NEW_ACCENT,
  NEW_HREF,
  NEW_TITLE,
  OLD_ACCENT,
  OLD_HREF,
  OLD_TITLE,
} from './page.js';

const PAGE = 'site/index.html';
const READ: ScriptedCall = { name: 'read_file', arguments: { path: PAGE } };
const write = (content: string): ScriptedCall => ({ name: 'write_file', arguments: { path: PAGE, content } });

/** What a model that runs out of output budget writes: the edited head of the page, then closing tags. */
const TRUNCATED = `${EDITED_PAGE.slice(0, 8000)}\n    </main>\n  </body>\n</html>\n`;

/** What a model that "saves tokens" writes: a comment standing in for the middle sections. */
const SUMMARIZED = EDITED_PAGE.replace(
  / {4}<section id="s10"[\s\S]*?(?= {4}<section id="s36")/,
  '    <!-- sections 10 to 35 unchanged -->\n',
);

const sed = (script: string): ScriptedCall => ({
  name: 'execute_command',
  arguments: { command: `sed -i '${script}' ${PAGE}` },
});

export const lures: Lure[] = [
  {
    id: 'truncated_rewrite',
    description: 'Rewrites the whole page with write_file and stops after the first 8000 characters.',
    script: [
      { calls: [READ] },
      { calls: [write(TRUNCATED)] },
      { text: 'Rewrote the page with the changes.', calls: [] },
    ],
    expect: { unreached: ['anchors_preserved', 'link_fixed', 'phone_updated'] },
  },
  {
    id: 'summarized_rewrite',
    description: 'Rewrites the page with every edit but replaces the middle sections by a comment.',
    script: [
      { calls: [READ] },
      { calls: [write(SUMMARIZED)] },
      { text: 'Applied all five edits.', calls: [] },
    ],
    expect: { unreached: ['anchors_preserved'] },
  },
  {
    id: 'pathless_write',
    description: 'Sends write_file with the (correct) page but without its path, then resends it properly.',
    script: [
      { calls: [READ] },
      { calls: [{ name: 'write_file', arguments: { content: EDITED_PAGE } }] },
      { calls: [write(EDITED_PAGE)] },
      { text: 'Applied all five edits.', calls: [] },
    ],
    expect: { unreached: ['args_intact'] },
  },
  {
    id: 'global_replace',
    description: 'Changes the phone number with a global replace, which also changes the harbor master desk.',
    script: [
      { calls: [READ] },
      {
        calls: [
          sed(`s|<title>${OLD_TITLE}</title>|<title>${NEW_TITLE}</title>|`),
          sed(`s|--accent: ${OLD_ACCENT};|--accent: ${NEW_ACCENT};|`),
          sed(`s|${NAV_AFTER}|&\\n        ${NAV_NEW}|`),
          sed(`s|${OLD_HREF}|${NEW_HREF}|`),
          sed('s/555 0142/555 0199/g'),
        ],
      },
      { text: 'Applied all five edits.', calls: [] },
    ],
    expect: { unreached: ['phone_updated'] },
  },
];
