python3 - <<'PY'
import csv
from collections import defaultdict
count, total = defaultdict(int), defaultdict(int)
for r in list(csv.reader(open("output/step1_delivered.csv", newline="")))[1:]:
    count[r[1]] += 1
    total[r[1]] += int(r[4])
with open("output/step5_carriers.csv", "w") as out:
    out.write("carrier,shipments,total_cost\n")
    for c in sorted(count):
        out.write(f"{c},{count[c]},{total[c]}\n")
print(open("output/step5_carriers.csv").read())
PY