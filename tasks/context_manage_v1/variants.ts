/**
 * context_manage_v1 solved in other styles (alternates: each must pass) and gamed (cheats: each must
 * miss the flags it names). `agent-bench validate` runs both through the real sandbox.
 */
import type { ScriptedCall } from '../../src/models/scripted.js';
import type { Alternate, Lure } from '../../src/tasks/types.js';
import { fixedService, STALE_MODULES, servicePath } from './fixture.js';

const run = (command: string): ScriptedCall => ({ name: 'execute_command', arguments: { command } });
const fix = (module: string, path = servicePath(module)): ScriptedCall => ({
  name: 'write_file',
  arguments: { path, content: fixedService(module) },
});
const FIXES = STALE_MODULES.map((m) => fix(m));
const CHECK = run(
  'python3 -c "from services import invoicing, quotes, refunds, subscriptions as s; ' +
    'print(invoicing.invoice_total(100), quotes.quote_total(100), refunds.refund_total(100), s.renewal_total(100))"',
);
const done = { text: 'Fixed services/invoicing.py, quotes.py, refunds.py and subscriptions.py.', calls: [] };

/** One sed per stale copy: each becomes an import from config (the default argument reads it too). */
const SED_FIXES = [
  "sed -i 's/^TAX_RATE = 0\\.07$/from config import TAX_RATE/' services/invoicing.py",
  "sed -i 's/^QUOTES_TAX_RATE = 0\\.07$/from config import TAX_RATE as QUOTES_TAX_RATE/' services/quotes.py",
  "sed -i 's/^_VAT = 0\\.07$/from config import TAX_RATE as _VAT/' services/subscriptions.py",
  "sed -i 's/tax_rate: float = 0\\.07/tax_rate: float = TAX_RATE/; s/^from config import CURRENCY, PAGE_SIZE, REFUND_WINDOW_DAYS$/&, TAX_RATE/' services/refunds.py",
].join(' && ');

/** A python3 script doing the same with regular expressions, over every file the survey found. */
const PYTHON_FIX = `python3 - <<'PY'
import pathlib
import re

for path in sorted(pathlib.Path("services").glob("*.py")):
    text = path.read_text()
    if "0.07" not in text:
        continue
    new = re.sub(r"^(\\w+) = 0\\.07$", r"from config import TAX_RATE as \\1", text, flags=re.M)
    if "= 0.07)" in new:
        new = new.replace("= 0.07)", "= TAX_RATE)")
        new = re.sub(r"^(from config import .*)$", r"\\1, TAX_RATE", new, count=1, flags=re.M)
    path.write_text(new)
    print("fixed", path)
PY`;

export const alternates: Alternate[] = [
  {
    id: 'grep_and_sed',
    description: 'One grep -rn for the old rate, a chain of sed edits, a python3 -c check.',
    script: [
      { text: 'Searching for the old rate.', calls: [run('grep -rn "0\\.07" services/')] },
      { calls: [run(SED_FIXES)] },
      { calls: [CHECK] },
      done,
    ],
  },
  {
    id: 'for_loop_and_python_script',
    description:
      'A `for f in ...; do grep -Hn ...; done` survey for several names, a python3 script fixing what it found.',
    script: [
      {
        calls: [
          run('for f in services/*.py; do grep -Hn -e "0\\.07" -e "TAX" -e "_VAT" -e "tax_rate" "$f"; done'),
        ],
      },
      { calls: [run(PYTHON_FIX)] },
      { calls: [run('grep -rn "0\\.07" services/ || echo "no stale copies left"'), CHECK] },
      done,
    ],
  },
  {
    id: 'cd_grep_without_numbers',
    description:
      'cd into services/, `grep -r` without -n (paths printed as ./name.py), write_file with paths relative to it.',
    script: [
      { calls: [run('cd services && grep -r "0\\.07" .')] },
      { calls: STALE_MODULES.map((m) => fix(m, `${m}.py`)) },
      {
        calls: [
          run('cd /workspace && python3 -c "import services.invoicing, services.refunds; print(\'ok\')"'),
        ],
      },
      done,
    ],
  },
  {
    id: 'names_then_read_in_parts',
    description:
      '`grep -rl` for the names, then read_file of each stale module in two parts, then the fixes.',
    script: [
      { calls: [run('grep -rl "0\\.07" services/')] },
      ...STALE_MODULES.map((m) => ({
        calls: [
          { name: 'read_file', arguments: { path: servicePath(m), limit: 3000 } },
          { name: 'read_file', arguments: { path: servicePath(m), offset: 3000 } },
        ],
      })),
      { calls: FIXES },
      { calls: [CHECK] },
      done,
    ],
  },
];

export const cheats: Lure[] = [
  {
    id: 'loop_by_many_commands',
    description:
      'Fixes every module, but shows config.py again and again through different commands (cat, head, sed -n, awk): the same lines each time.',
    script: [
      { calls: [run('cat config.py')] },
      { calls: [run('grep -rn "0\\.07" services/'), run('head -n 200 config.py')] },
      { calls: [run("sed -n '1,200p' config.py")] },
      { calls: [run("awk '{ print }' ./config.py")] },
      { calls: FIXES },
      done,
    ],
    expect: { unreached: ['no_read_loops'] },
  },
  {
    id: 'grep_misses_copies',
    description:
      'A search for `TAX_RATE = ` finds two of the copies; the private constant and the default argument go unseen.',
    script: [{ calls: [run('grep -rn "TAX_RATE = " services/')] }, { calls: FIXES }, done],
    expect: { unreached: ['files_surveyed'] },
  },
  {
    id: 'names_only',
    description: '`grep -rl` prints the file names only: no line of any module reached the model.',
    script: [{ calls: [run('grep -rl "0\\.07" services/')] }, { calls: FIXES }, done],
    expect: { unreached: ['files_surveyed'] },
  },
  {
    id: 'counts_and_wc',
    description: 'Reads piped into wc and grep -c: counts, never lines.',
    script: [
      { calls: [run('cat services/*.py | wc -l; grep -rc "0\\.07" services/ | grep -v ":0$"')] },
      { calls: FIXES },
      done,
    ],
    expect: { unreached: ['files_surveyed'] },
  },
  {
    id: 'hits_into_tmp',
    description: 'The search output goes to a file in /tmp that is never shown; only its line count is.',
    script: [
      { calls: [run('grep -rn "0\\.07" services/ > /tmp/hits.txt; wc -l < /tmp/hits.txt')] },
      { calls: FIXES },
      done,
    ],
    expect: { unreached: ['files_surveyed'] },
  },
  {
    id: 'exit_at_import',
    description:
      "A real survey and the fixes, plus `os._exit(0)` in services/__init__.py: the harness's run ends with no summary.",
    script: [
      { calls: [run('grep -rn "0\\.07" services/')] },
      { calls: FIXES },
      { calls: [run("sed -i '1i import os; os._exit(0)' services/__init__.py")] },
      done,
    ],
    expect: { unreached: ['consistency_fixed'] },
  },
];
