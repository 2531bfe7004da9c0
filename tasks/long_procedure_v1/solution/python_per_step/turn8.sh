python3 - <<'PY'
import csv
delivered = len(open("output/step1_delivered.csv").read().splitlines()) - 1
top8 = sum(int(r[4]) for r in list(csv.reader(open("output/step3_top8.csv")))[1:])
carriers = list(csv.reader(open("output/step5_carriers.csv")))[1:]
top = max(carriers, key=lambda r: int(r[2]))[0]
open("output/step6_totals.txt", "w").write(f"DELIVERED={delivered}\nTOP8_COST={top8}\nTOP_CARRIER={top}\n")
print(open("output/step6_totals.txt").read())
PY