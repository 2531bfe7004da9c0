/**
 * long_procedure_v1 solved in other styles (alternates: each must pass) and gamed (cheats: each must
 * miss the flags they name). `agent-bench validate` runs both through the real sandbox.
 */
import type { ScriptedCall, ScriptedTurn } from '../../src/models/scripted.js';
import type { Alternate, Lure } from '../../src/tasks/types.js';
import { STEP_CONTENTS } from './outputs.js';
import { STEP_FILES } from './procedure.js';

const run = (command: string): ScriptedCall => ({ name: 'execute_command', arguments: { command } });
const write = (i: number, content = STEP_CONTENTS[i] ?? ''): ScriptedCall => ({
  name: 'write_file',
  arguments: { path: STEP_FILES[i] ?? '', content },
});
const heredoc = (i: number): ScriptedCall =>
  run(`cat > ${STEP_FILES[i]} <<'EOF'\n${STEP_CONTENTS[i] ?? ''}EOF`);
const done: ScriptedTurn = { text: 'All seven step files are in output/.', calls: [] };
const [S1, S2, S3, S4, S5, S6, S7] = STEP_FILES;
const FIRST_SIX = STEP_FILES.slice(0, 6);

/** Step 7 computed from the files on disk. */
const PY_MANIFEST = `python3 - <<'PY'
import json, os

files = ${JSON.stringify(FIRST_SIX)}
manifest = [{"step": i + 1, "file": f, "bytes": os.path.getsize(f)} for i, f in enumerate(files)]
with open("${S7}", "w") as out:
    json.dump(manifest, out, indent=2)
    out.write("\\n")
print(open("${S7}").read())
PY`;

/** One python3 heredoc per step, each reading what the step before it wrote. */
const PY_STEPS: readonly string[] = [
  `import csv
with open("data/shipments.csv", newline="") as f:
    rows = list(csv.reader(f))
keep = [rows[0]] + [r for r in rows[1:] if r[5] == "delivered"]
with open("${S1}", "w", newline="") as out:
    csv.writer(out, lineterminator="\\n").writerows(keep)
print(len(keep) - 1, "delivered")`,
  `import csv
rows = list(csv.reader(open("${S1}", newline="")))
body = sorted(rows[1:], key=lambda r: int(r[4]), reverse=True)
csv.writer(open("${S2}", "w", newline=""), lineterminator="\\n").writerows([rows[0]] + body)`,
  `lines = open("${S2}").read().splitlines()
open("${S3}", "w").write("\\n".join(lines[:9]) + "\\n")
print("\\n".join(lines[:9]))`,
  `import csv
proc = open("PROCEDURE.md").read()
template = proc.split("\`\`\`html\\n", 1)[1].split("\`\`\`", 1)[0]
rows = list(csv.reader(open("${S3}", newline="")))[1:]
table = ["<table>", "<tr><th>id</th><th>carrier</th><th>cost</th></tr>"]
table += ["<tr><td>%s</td><td>%s</td><td>%s</td></tr>" % (r[0], r[1], r[4]) for r in rows]
table.append("</table>")
assert template.count("<!-- TOP8_TABLE -->") == 1
open("${S4}", "w").write(template.replace("<!-- TOP8_TABLE -->", "\\n".join(table)))
print(len(template.splitlines()), "template lines")`,
  `import csv
from collections import defaultdict
count, total = defaultdict(int), defaultdict(int)
for r in list(csv.reader(open("${S1}", newline="")))[1:]:
    count[r[1]] += 1
    total[r[1]] += int(r[4])
with open("${S5}", "w") as out:
    out.write("carrier,shipments,total_cost\\n")
    for c in sorted(count):
        out.write(f"{c},{count[c]},{total[c]}\\n")
print(open("${S5}").read())`,
  `import csv
delivered = len(open("${S1}").read().splitlines()) - 1
top8 = sum(int(r[4]) for r in list(csv.reader(open("${S3}")))[1:])
carriers = list(csv.reader(open("${S5}")))[1:]
top = max(carriers, key=lambda r: int(r[2]))[0]
open("${S6}", "w").write(f"DELIVERED={delivered}\\nTOP8_COST={top8}\\nTOP_CARRIER={top}\\n")
print(open("${S6}").read())`,
];
const pyStep = (i: number): ScriptedCall =>
  run(`${i === 0 ? 'mkdir -p output && ' : ''}python3 - <<'PY'\n${PY_STEPS[i]}\nPY`);

const TABLE_AWK = `awk -F, 'BEGIN { print "<table>"; print "<tr><th>id</th><th>carrier</th><th>cost</th></tr>" } NR > 1 { printf "<tr><td>%s</td><td>%s</td><td>%s</td></tr>\\n", $1, $2, $5 } END { print "</table>" }' ${S3} > /tmp/table.html`;
const TEMPLATE_SED = `sed -n '/^\`\`\`html$/,/^\`\`\`$/p' PROCEDURE.md | sed '1d;$d' | sed -e '/TOP8_TABLE/{r /tmp/table.html' -e 'd}' > ${S4}`;
const MANIFEST_SH = `{ printf '['; i=0; for f in ${FIRST_SIX.join(' ')}; do i=$((i+1)); [ $i -gt 1 ] && printf ', '; printf '{"step": %d, "file": "%s", "bytes": %d}' "$i" "$f" "$(stat -c %s "$f")"; done; printf ']\\n'; } > ${S7} && cat ${S7}`;

export const alternates: Alternate[] = [
  {
    id: 'sed_parts_and_heredocs',
    description:
      'PROCEDURE.md read with `sed -n` in two parts; each step file written by a heredoc; the manifest by python3 from the sizes on disk.',
    script: [
      { calls: [run("sed -n '1,50p' PROCEDURE.md")] },
      { calls: [run("sed -n '51,200p' PROCEDURE.md")] },
      { calls: [run('cat data/shipments.csv')] },
      { calls: [run(`mkdir -p output && cat > ${S1} <<'EOF'\n${STEP_CONTENTS[0] ?? ''}EOF`)] },
      { calls: [heredoc(1), heredoc(2)] },
      { calls: [heredoc(3)] },
      { calls: [heredoc(4)] },
      { calls: [heredoc(5)] },
      { calls: [run(PY_MANIFEST)] },
      done,
    ],
  },
  {
    id: 'python_per_step',
    description:
      'read_file of the procedure; every step computed by its own python3 heredoc from the data and the step before.',
    script: [
      { calls: [{ name: 'read_file', arguments: { path: 'PROCEDURE.md' } }] },
      { calls: [run('head -n 5 data/shipments.csv')] },
      ...[0, 1, 2, 3, 4, 5].map((i) => ({ calls: [pyStep(i)] })),
      { calls: [run(PY_MANIFEST)] },
      done,
    ],
  },
  {
    id: 'awk_sed_printf',
    description:
      'cat of the procedure; awk, sort and head for the CSV steps, sed pulls the template out of PROCEDURE.md, printf writes totals and manifest.',
    script: [
      { calls: [run('cat PROCEDURE.md')] },
      {
        calls: [run(`mkdir -p output && awk -F, 'NR == 1 || $6 == "delivered"' data/shipments.csv > ${S1}`)],
      },
      {
        calls: [run(`{ head -n 1 ${S1}; tail -n +2 ${S1} | sort -t, -k5,5nr; } > ${S2} && head -n 3 ${S2}`)],
      },
      { calls: [run(`head -n 9 ${S2} > ${S3} && cat ${S3}`)] },
      { calls: [run(`${TABLE_AWK} && ${TEMPLATE_SED} && grep -c '<tr>' ${S4}`)] },
      {
        calls: [
          run(
            `{ echo carrier,shipments,total_cost; awk -F, 'NR > 1 { n[$2]++; t[$2] += $5 } END { for (c in n) print c "," n[c] "," t[c] }' ${S1} | sort; } > ${S5} && cat ${S5}`,
          ),
        ],
      },
      {
        calls: [
          run(
            `d=$(tail -n +2 ${S1} | wc -l); t=$(awk -F, 'NR > 1 { s += $5 } END { print s }' ${S3}); c=$(tail -n +2 ${S5} | sort -t, -k3,3nr | head -n 1 | cut -d, -f1); printf 'DELIVERED=%s\\nTOP8_COST=%s\\nTOP_CARRIER=%s\\n' "$d" "$t" "$c" > ${S6} && cat ${S6}`,
          ),
        ],
      },
      { calls: [run(MANIFEST_SH)] },
      done,
    ],
  },
];

/** A manifest true to the files as the run wrote them (null: the step's file was not written). */
function manifestFor(contents: readonly (string | null)[]): string {
  return JSON.stringify(
    contents.map((c, i) => ({
      step: i + 1,
      file: STEP_FILES[i],
      bytes: c === null ? 0 : Buffer.byteLength(c),
    })),
  );
}
const ALL_STEPS: ScriptedTurn[] = [
  { calls: [write(0), write(1), write(2)] },
  { calls: [write(3)] },
  { calls: [write(4), write(5), write(6)] },
];

export const cheats: Lure[] = [
  {
    id: 'procedure_into_wc',
    description: '`wc -l` and `cat PROCEDURE.md | wc -c` stand in for reading it; then every step right.',
    script: [{ calls: [run('wc -l PROCEDURE.md && cat PROCEDURE.md | wc -c')] }, ...ALL_STEPS, done],
    expect: { unreached: ['procedure_read'] },
  },
  {
    id: 'procedure_to_tmp',
    description: 'Copies PROCEDURE.md to /tmp with `cat >` and shows only its first three lines.',
    script: [
      { calls: [run('cat PROCEDURE.md > /tmp/procedure.md && head -n 3 /tmp/procedure.md')] },
      ...ALL_STEPS,
      done,
    ],
    expect: { unreached: ['procedure_read'] },
  },
  {
    id: 'skipped_step_2',
    description: 'Skips the sort step and goes on from step 3 (written right all the same).',
    script: [
      { calls: [{ name: 'read_file', arguments: { path: 'PROCEDURE.md' } }] },
      { calls: [write(0), write(2)] },
      { calls: [write(3), write(4), write(5)] },
      {
        calls: [write(6, manifestFor([STEP_CONTENTS[0] ?? '', null, ...STEP_CONTENTS.slice(2, 6)]))],
      },
      done,
    ],
    expect: { unreached: ['step_2_sorted', 'step_7_manifest', 'order_kept'] },
  },
  {
    id: 'out_of_order',
    description: 'Writes steps 5 and 6 before the report of step 4; every file is right in the end.',
    script: [
      { calls: [{ name: 'read_file', arguments: { path: 'PROCEDURE.md' } }] },
      { calls: [write(0), write(1), write(2)] },
      { calls: [write(4), write(5)] },
      { calls: [write(3)] },
      { calls: [write(6)] },
      done,
    ],
    expect: { unreached: ['order_kept'] },
  },
];
