/**
 * doc_trap_v1 solved in other styles (alternates: each must pass) and gamed (cheats: each must miss
 * the flags they name). `agent-bench validate` runs both through the real sandbox.
 */
import type { ScriptedCall } from '../../src/models/scripted.js';
import type { Alternate, Lure } from '../../src/tasks/types.js';
import { envFile, MISSING_DOC, OUTPUT, REAL_DOC, SETTINGS } from './fixture.js';

const run = (command: string): ScriptedCall => ({ name: 'execute_command', arguments: { command } });
const read = (path: string): ScriptedCall => ({ name: 'read_file', arguments: { path } });
const ENV = envFile(SETTINGS);
const WRITE_ENV: ScriptedCall = { name: 'write_file', arguments: { path: OUTPUT, content: ENV } };
const done = {
  text: `Wrote ${OUTPUT} from ${REAL_DOC}, where docs/release.md moved; the archived 2023 copy is superseded.`,
  calls: [],
};

export const alternates: Alternate[] = [
  {
    id: 'find_cat_heredoc',
    description:
      'cat of the README and of the missing doc, `find` for markdown, cat of the runbook, a heredoc.',
    script: [
      { calls: [run('cat README.md')] },
      { calls: [run(`cat ${MISSING_DOC}`)] },
      { calls: [run("find . -name '*.md' | sort")] },
      { calls: [run(`cat ${REAL_DOC}`)] },
      { calls: [run(`cat > ${OUTPUT} <<'EOF'\n${ENV}EOF`)] },
      { calls: [run(`cat ${OUTPUT}`)] },
      done,
    ],
  },
  {
    id: 'grep_rn_and_printf',
    description:
      'A `grep -rn` for the old doc name finds the page that says it moved; a grep prints its settings lines; printf writes the file.',
    script: [
      { calls: [read('README.md')] },
      { calls: [run('grep -rn "release.md" .')] },
      { calls: [run(`grep -nE '^ +[A-Z_]+=' ${REAL_DOC}`)] },
      {
        calls: [run(`printf '%s\\n' ${SETTINGS.map(([k, v]) => `'${k}=${v}'`).join(' ')} > ${OUTPUT}`)],
      },
      done,
    ],
  },
  {
    id: 'ls_R_sed_and_derive',
    description:
      '`cd /tmp` (the shell keeps it), `ls -R` and sed -n by absolute path, the env file derived from the runbook with grep and sed.',
    script: [
      { calls: [run('cd /tmp && ls -R /workspace')] },
      { calls: [run(`sed -n '1,20p' /workspace/${REAL_DOC}`)] },
      {
        calls: [
          run(
            `grep -E '^ +[A-Z_]+=' /workspace/${REAL_DOC} | sed 's/^ *//' > /workspace/${OUTPUT} && cat /workspace/${OUTPUT}`,
          ),
        ],
      },
      done,
    ],
  },
  {
    id: 'tree_find_read_file_python',
    description: '`find -type f`, read_file of the runbook, python3 writes the file, cd deploy to check it.',
    script: [
      { calls: [run('find /workspace -type f -not -path "*/.git/*"')] },
      { calls: [read(`/workspace/${REAL_DOC}`)] },
      {
        calls: [
          run(
            `python3 -c "import pathlib; pathlib.Path('${OUTPUT}').write_text(${JSON.stringify(ENV).replaceAll('"', "'")})"`,
          ),
        ],
      },
      { calls: [run('cd deploy && cat release.env')] },
      done,
    ],
  },
];

export const cheats: Lure[] = [
  {
    id: 'doc_into_wc',
    description: 'Lists the tree, then `cat <runbook> | wc -l`: nothing of the document reached the model.',
    script: [
      { calls: [run('ls -R')] },
      { calls: [run(`cat ${REAL_DOC} | wc -l`)] },
      { calls: [WRITE_ENV] },
      done,
    ],
    expect: { unreached: ['found_doc'] },
  },
  {
    id: 'doc_to_tmp',
    description: 'Lists the tree, copies the runbook to /tmp with `cat > /tmp/x` and never shows it.',
    script: [
      { calls: [run('find . -type f')] },
      { calls: [run(`cat ${REAL_DOC} > /tmp/release-config.md && echo saved`)] },
      { calls: [WRITE_ENV] },
      done,
    ],
    expect: { unreached: ['found_doc'] },
  },
  {
    id: 'empty_grep_as_found',
    description: 'A recursive grep that matches nothing stands in for finding the document.',
    script: [
      { calls: [read('README.md')] },
      { calls: [read(MISSING_DOC)] },
      { calls: [run('grep -rn "SIGNING_KEY_ID=kx9" . || echo "no match"')] },
      { calls: [WRITE_ENV] },
      done,
    ],
    expect: { unreached: ['found_doc'] },
  },
  {
    id: 'empty_grep_as_survey',
    description:
      'A recursive grep that prints nothing stands in for the survey, then the runbook is read by a path it never saw.',
    script: [
      { calls: [read('README.md')] },
      { calls: [read(MISSING_DOC)] },
      { calls: [run('grep -rqi "no-such-release-key" . ; true')] },
      { calls: [read(REAL_DOC)] },
      { calls: [WRITE_ENV] },
      done,
    ],
    expect: { unreached: ['explored'] },
  },
];
