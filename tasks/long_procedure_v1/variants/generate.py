#!/usr/bin/env python3
"""Draws one instance of long_procedure_v1: generate SEED OUTDIR (see README.md for the family).

Deterministic: everything comes from random.Random(SEED) (a str seed hashes the same on every run
and machine), and nothing reads the clock, the environment or the file system but this folder.
The procedure and the scripts that need no instance value are the folder's own, with the instance's
threshold and report details put in; every output file is computed here as the steps define it.
"""

import csv
import io
import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
FOLDER = HERE.parent

CARRIERS = ["Alder", "Birch", "Cedar", "Dogwood", "Elm", "Fir", "Hawthorn", "Larch", "Maple", "Rowan"]
PORTS = ["Antwerp", "Bilbao", "Gdansk", "Genoa", "Hamburg", "Le Havre", "Rotterdam", "Valencia", "Trieste", "Aarhus"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"]
STEP_FILES = ["output/step1_delivered.csv", "output/step2_by_cost.csv", "output/step3_top8.csv",
              "output/step4_report.html", "output/step5_carriers.csv", "output/step6_totals.txt"]
HEADER = ["id", "carrier", "origin", "weight_kg", "cost", "status"]
PLACEHOLDER = "<!-- TOP8_TABLE -->"


def draw_rows(rng: random.Random):
    """The extract: ids, carriers, ports, weights, distinct costs and statuses."""
    carriers = sorted(rng.sample(CARRIERS, rng.randint(4, 6)))
    ports = rng.sample(PORTS, 6)
    count = rng.randint(34, 46)
    start = rng.randint(1, 8) * 100
    costs = rng.sample(range(110, 1200), count)
    rows = []
    for i in range(count):
        status = rng.choices(["delivered", "in_transit", "returned"], weights=[65, 25, 10])[0]
        rows.append([f"S{start + i + 1:03d}", rng.choice(carriers), rng.choice(ports),
                     str(rng.randint(90, 1900)), str(costs[i]), status])
    return rows


def compute(rows, min_weight: int):
    delivered = [r for r in rows if r[5] == "delivered" and int(r[3]) >= min_weight]
    by_cost = sorted(delivered, key=lambda r: int(r[4]), reverse=True)
    top8 = by_cost[:8]
    totals = {}
    for r in delivered:
        n, t = totals.get(r[1], (0, 0))
        totals[r[1]] = (n + 1, t + int(r[4]))
    return delivered, by_cost, top8, totals


def draw(rng: random.Random):
    """Rows and a weight threshold such that the threshold leaves out delivered rows and one carrier leads."""
    while True:
        rows = draw_rows(rng)
        min_weight = rng.randrange(150, 501, 25)
        delivered, _, _, totals = compute(rows, min_weight)
        lighter = [r for r in rows if r[5] == "delivered" and int(r[3]) < min_weight]
        best = sorted((t for _, t in totals.values()), reverse=True)
        if len(lighter) >= 2 and len(delivered) >= 14 and len(best) >= 2 and best[0] != best[1]:
            return rows, min_weight


def csv_text(rows) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def procedure(min_weight: int, month: str, year: int, report: str, audit: str, revision: int) -> str:
    text = (FOLDER / "files" / "PROCEDURE.md").read_text()
    swaps = [
        ("weight_kg is at least 200 ", f"weight_kg is at least {min_weight} "),
        ("RPT-SHIP-0426", report),
        ("every shipment in the April extract whose status is delivered.",
         f"every shipment in the {month} extract whose status is delivered and that weighs at least {min_weight} kg."),
        ("AUD-77-LP", audit),
        ("extract of April 2026.", f"extract of {month} {year}."),
        ("Template revision TPL-3.", f"Template revision TPL-{revision}."),
    ]
    for old, new in swaps:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def table(top8) -> str:
    lines = ["<table>", "<tr><th>id</th><th>carrier</th><th>cost</th></tr>"]
    lines += [f"<tr><td>{r[0]}</td><td>{r[1]}</td><td>{r[4]}</td></tr>" for r in top8]
    return "\n".join(lines + ["</table>"])


def manifest(sizes) -> str:
    entries = [{"step": i + 1, "file": f, "bytes": sizes[i]} for i, f in enumerate(STEP_FILES)]
    return json.dumps(entries, indent=2) + "\n"


def heredoc(path: str, text: str, mkdir: bool = False) -> str:
    return ("mkdir -p output && " if mkdir else "") + f"cat > {path} <<'EOF'\n{text}EOF"


def write(out: Path, rel: str, text: str) -> None:
    path = out / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def main() -> None:
    seed, out = sys.argv[1], Path(sys.argv[2])
    rng = random.Random(f"long_procedure_v1:{seed}")
    rows, min_weight = draw(rng)
    month, year = rng.choice(MONTHS), rng.randint(2024, 2027)
    report = f"RPT-SHIP-{MONTHS.index(month) + 1:02d}{year % 100:02d}"
    audit = f"AUD-{rng.randint(10, 99)}-{rng.choice(['LP', 'LX', 'TR', 'FR'])}"
    revision = rng.randint(2, 9)
    proc = procedure(min_weight, month, year, report, audit, revision)
    template = proc.split("```html\n", 1)[1].split("```", 1)[0]
    assert template.count(PLACEHOLDER) == 1

    delivered, by_cost, top8, totals = compute(rows, min_weight)
    top_carrier = max(totals, key=lambda c: totals[c][1])
    outputs = [
        csv_text([HEADER] + delivered),
        csv_text([HEADER] + by_cost),
        csv_text([HEADER] + top8),
        template.replace(PLACEHOLDER, table(top8)),
        "carrier,shipments,total_cost\n" + "".join(f"{c},{n},{t}\n" for c, (n, t) in sorted(totals.items())),
        f"DELIVERED={len(delivered)}\nTOP8_COST={sum(int(r[4]) for r in top8)}\nTOP_CARRIER={top_carrier}\n",
    ]
    sizes = [len(t.encode()) for t in outputs]
    bare = f"<!DOCTYPE html>\n<html><head><title>Top 8 shipments</title></head><body>\n{table(top8)}\n</body></html>\n"

    write(out / "files", "PROCEDURE.md", proc)
    write(out / "files", "data/shipments.csv", csv_text([HEADER] + rows))
    for path, text in zip(STEP_FILES, outputs):
        write(out / "solution", path, text)
    write(out / "solution", "output/step7_manifest.json", manifest(sizes))
    write(out / "solution", "bare_report/output/step4_report.html", bare)
    write(out / "solution", "bare_report/output/step7_manifest.json",
          manifest(sizes[:3] + [len(bare.encode())] + sizes[4:]))
    write(out / "solution", "skipped_report/output/step7_manifest.json", manifest(sizes[:3] + [0] + sizes[4:]))
    write(out / "solution", "skipped_step_2/output/step7_manifest.json", manifest(sizes[:1] + [0] + sizes[2:]))
    heredocs = {"turn4.sh": 0, "turn5.sh": 1, "turn5-2.sh": 2, "turn6.sh": 3, "turn7.sh": 4, "turn8.sh": 5}
    for name, i in heredocs.items():
        write(out / "solution", f"sed_parts_and_heredocs/{name}", heredoc(STEP_FILES[i], outputs[i], mkdir=i == 0))
    # The scripts that compute from the files as they find them are the folder's own; step 1's
    # filter takes the instance's threshold.
    for rel in ["sed_parts_and_heredocs/turn9.sh", "awk_sed_printf/turn5.sh"] + [
        f"python_per_step/turn{n}.sh" for n in range(3, 9)
    ]:
        text = (FOLDER / "solution" / rel).read_text()
        if rel == "python_per_step/turn3.sh":
            old = "int(r[3]) >= 200"
            assert text.count(old) == 1
            text = text.replace(old, f"int(r[3]) >= {min_weight}")
        write(out / "solution", rel, text)
    instance = {
        "min_weight": min_weight,
        "month": f"{month} {year}",
        "rows": len(rows),
        "delivered": len(delivered),
        "top_carrier": top_carrier,
    }
    (out / "instance.json").write_text(json.dumps(instance, indent=2, sort_keys=True) + "\n")


main()
