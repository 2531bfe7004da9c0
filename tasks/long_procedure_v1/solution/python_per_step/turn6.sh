python3 - <<'PY'
import csv
proc = open("PROCEDURE.md").read()
template = proc.split("```html\n", 1)[1].split("```", 1)[0]
rows = list(csv.reader(open("output/step3_top8.csv", newline="")))[1:]
table = ["<table>", "<tr><th>id</th><th>carrier</th><th>cost</th></tr>"]
table += ["<tr><td>%s</td><td>%s</td><td>%s</td></tr>" % (r[0], r[1], r[4]) for r in rows]
table.append("</table>")
assert template.count("<!-- TOP8_TABLE -->") == 1
open("output/step4_report.html", "w").write(template.replace("<!-- TOP8_TABLE -->", "\n".join(table)))
print(len(template.splitlines()), "template lines")
PY