python3 - <<'PY'
lines = open("output/step2_by_cost.csv").read().splitlines()
open("output/step3_top8.csv", "w").write("\n".join(lines[:9]) + "\n")
print("\n".join(lines[:9]))
PY