python3 - <<'PY'
import csv
rows = list(csv.reader(open("output/step1_delivered.csv", newline="")))
body = sorted(rows[1:], key=lambda r: int(r[4]), reverse=True)
csv.writer(open("output/step2_by_cost.csv", "w", newline=""), lineterminator="\n").writerows([rows[0]] + body)
PY