mkdir -p output && python3 - <<'PY'
import csv
with open("data/shipments.csv", newline="") as f:
    rows = list(csv.reader(f))
keep = [rows[0]] + [r for r in rows[1:] if r[5] == "delivered" and int(r[3]) >= 200]
with open("output/step1_delivered.csv", "w", newline="") as out:
    csv.writer(out, lineterminator="\n").writerows(keep)
print(len(keep) - 1, "delivered")
PY