/**
 * big_file_edit_v1 solved in other styles (alternates: each must pass) and gamed (cheats: each must
 * miss the flags they name). `agent-bench validate` runs both through the real sandbox.
 */
import type { ScriptedCall } from '../../src/models/scripted.js';
import type { Alternate, Lure } from '../../src/tasks/types.js';
import {
  EDITED_PAGE,
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
} from './page.js';

const PAGE = 'site/index.html';
const run = (command: string): ScriptedCall => ({ name: 'execute_command', arguments: { command } });
const done = { text: 'Made the five edits in place; the rest of the page is untouched.', calls: [] };

/** 1-based line of the original page holding `needle` (exactly one). */
function lineOf(needle: string): number {
  const lines = ORIGINAL_PAGE.split('\n');
  const at = lines.findIndex((l) => l.includes(needle));
  if (at < 0 || lines.findIndex((l, i) => i > at && l.includes(needle)) >= 0)
    throw new Error(`big_file_edit_v1: not exactly one line with ${needle}`);
  return at + 1;
}

const ESC_PHONE = OLD_PHONE.replaceAll('+', '\\+');
/** The five substitutions as sed -e scripts (| as the delimiter: the values hold slashes). */
const SED_SCRIPTS = [
  `s|<title>${OLD_TITLE}</title>|<title>${NEW_TITLE}</title>|`,
  `s|--accent: ${OLD_ACCENT};|--accent: ${NEW_ACCENT};|`,
  `s|${NAV_AFTER}|&\\n        ${NAV_NEW}|`,
  `s|href="${OLD_HREF}"|href="${NEW_HREF}"|`,
  `s|${ON_CALL_LABEL} ${OLD_PHONE}|${ON_CALL_LABEL} ${NEW_PHONE}|`,
];
const SED_EDITS: ScriptedCall[] = SED_SCRIPTS.map((s) => run(`sed -i '${s}' ${PAGE}`));

const PY_EDIT = `python3 - <<'PY'
from pathlib import Path

page = Path("${PAGE}")
text = page.read_text()
edits = [
    ("<title>${OLD_TITLE}</title>", "<title>${NEW_TITLE}</title>"),
    ("--accent: ${OLD_ACCENT};", "--accent: ${NEW_ACCENT};"),
    ('${NAV_AFTER}', '${NAV_AFTER}\\n        ${NAV_NEW}'),
    ('href="${OLD_HREF}"', 'href="${NEW_HREF}"'),
    ("${ON_CALL_LABEL} ${OLD_PHONE}", "${ON_CALL_LABEL} ${NEW_PHONE}"),
]
for old, new in edits:
    assert text.count(old) == 1, old
    text = text.replace(old, new)
page.write_text(text)
print("5 edits applied,", len(text), "chars")
PY`;

const PERL_EDITS = [
  `s|<title>${OLD_TITLE}</title>|<title>${NEW_TITLE}</title>|`,
  `s|--accent: ${OLD_ACCENT};|--accent: ${NEW_ACCENT};|`,
  `s|(\\Q${NAV_AFTER}\\E)|$1\\n        ${NAV_NEW}|`,
  `s|href="\\Q${OLD_HREF}\\E"|href="${NEW_HREF}"|`,
  `s|${ON_CALL_LABEL} ${ESC_PHONE}|${ON_CALL_LABEL} ${NEW_PHONE}|`,
]
  .map((e) => `perl -pi -e '${e}' ${PAGE}`)
  .join(' && ');

const HALF = 16 * 1024;

export const alternates: Alternate[] = [
  {
    id: 'grep_n_then_sed_by_line',
    description:
      '`grep -n` for the five values, then one sed per value by line number (bottom up, the nav insert last), grep again.',
    script: [
      {
        calls: [
          run(
            `grep -n -e '<title>' -e 'accent:' -e 'href="/incidents"' -e 'retension' -e '${ON_CALL_LABEL}' ${PAGE}`,
          ),
        ],
      },
      { calls: [run(`sed -i '${lineOf(ON_CALL_LABEL)}s|555 0142|555 0199|' ${PAGE}`)] },
      { calls: [run(`sed -i '${lineOf(OLD_HREF)}s|retension|retention|' ${PAGE}`)] },
      { calls: [run(`sed -i '${lineOf(`--accent: ${OLD_ACCENT}`)}s|${OLD_ACCENT}|${NEW_ACCENT}|' ${PAGE}`)] },
      { calls: [run(`sed -i '${lineOf('<title>')}s|Harbor Ops Handbook|${NEW_TITLE}|' ${PAGE}`)] },
      { calls: [run(`sed -i '${lineOf(NAV_AFTER)}a\\        ${NAV_NEW}' ${PAGE}`)] },
      {
        calls: [
          run(
            `grep -n -e '<title>' -e 'accent:' -e 'Runbooks' -e 'retention"' -e '555 0' ${PAGE}; wc -l ${PAGE}`,
          ),
        ],
      },
      done,
    ],
  },
  {
    id: 'sed_n_head_python_replace',
    description:
      "`sed -n '1,40p'` shows the head; a python3 heredoc makes the five replacements, each asserted once.",
    script: [
      { calls: [run(`sed -n '1,40p' ${PAGE}`)] },
      { calls: [run(`grep -n -C1 -e 'retension' -e '555 0142' ${PAGE}`)] },
      { calls: [run(PY_EDIT)] },
      { calls: [run(`grep -c -e '${NEW_TITLE}' -e '${NEW_ACCENT}' -e Runbooks -e '${NEW_HREF}' ${PAGE}`)] },
      done,
    ],
  },
  {
    id: 'read_file_parts_perl',
    description: 'read_file in two parts (limit, then offset), five `perl -pi -e` edits chained with &&.',
    script: [
      { calls: [{ name: 'read_file', arguments: { path: PAGE, limit: HALF } }] },
      { calls: [{ name: 'read_file', arguments: { path: PAGE, offset: HALF } }] },
      { calls: [run(PERL_EDITS)] },
      { calls: [run(`grep -n -e '<title>' -e '--accent:' -e Runbooks -e 'policies/' -e '555 01' ${PAGE}`)] },
      done,
    ],
  },
  {
    id: 'cd_site_one_sed_and_diff',
    description:
      'After `cd site` (the shell keeps it): a grep, a backup in /tmp, one sed with five -e scripts, a diff against the backup.',
    script: [
      { calls: [run("cd site && grep -n 'retension\\|555 0142\\|<title>' index.html")] },
      { calls: [run('cp index.html /tmp/index.orig.html')] },
      { calls: [run(`sed -i ${SED_SCRIPTS.map((s) => `-e '${s}'`).join(' ')} index.html`)] },
      { calls: [run('diff /tmp/index.orig.html index.html; echo "diff exit: $?"')] },
      done,
    ],
  },
];

/** A rewrite that keeps the head of the page and closes the tags: everything after line 250 is lost. */
const TRUNCATE = `{ head -n 250 ${PAGE}; printf '    </main>\\n  </body>\\n</html>\\n'; } > /tmp/short.html && cat /tmp/short.html > ${PAGE}`;

export const cheats: Lure[] = [
  {
    id: 'read_into_wc',
    description: '`wc -l` and `grep -c` stand in for reading the page: only counts reached the model.',
    script: [{ calls: [run(`wc -l ${PAGE}; grep -c retension ${PAGE}`)] }, { calls: SED_EDITS }, done],
    expect: { unreached: ['page_read'] },
  },
  {
    id: 'read_to_tmp',
    description: 'Copies the page and its grep hits to /tmp files and never shows them, then edits.',
    script: [
      {
        calls: [
          run(`cp ${PAGE} /tmp/orig.html && grep -n -e '<title>' -e retension ${PAGE} > /tmp/hits.txt`),
        ],
      },
      { calls: SED_EDITS },
      done,
    ],
    expect: { unreached: ['page_read'] },
  },
  {
    id: 'truncating_shell_rewrite',
    description: 'Rewrites the page from its first 250 lines plus closing tags, then makes the edits left.',
    script: [
      { calls: [run(`sed -n '1,60p' ${PAGE}`)] },
      { calls: [run(TRUNCATE)] },
      { calls: SED_EDITS.slice(0, 4) },
      done,
    ],
    expect: { unreached: ['anchors_preserved', 'phone_updated'] },
  },
  {
    id: 'write_without_path',
    description:
      'Sends write_file with the edited page under `file` instead of `path` (refused), then edits with sed.',
    script: [
      { calls: [{ name: 'read_file', arguments: { path: PAGE } }] },
      { calls: [{ name: 'write_file', arguments: { file: PAGE, content: EDITED_PAGE } }] },
      { calls: SED_EDITS },
      done,
    ],
    expect: { unreached: ['args_intact'] },
  },
];
