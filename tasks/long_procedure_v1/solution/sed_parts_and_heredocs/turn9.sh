python3 - <<'PY'
import json, os

files = ["output/step1_delivered.csv","output/step2_by_cost.csv","output/step3_top8.csv","output/step4_report.html","output/step5_carriers.csv","output/step6_totals.txt"]
manifest = [{"step": i + 1, "file": f, "bytes": os.path.getsize(f)} for i, f in enumerate(files)]
with open("output/step7_manifest.json", "w") as out:
    json.dump(manifest, out, indent=2)
    out.write("\n")
print(open("output/step7_manifest.json").read())
PY