#!/usr/bin/env python3
"""csv_summarize: totals a sales CSV (region, units, price) by region.

Writes ROWS=<n>, one REGION <name>=<amount> line per region (sorted by name) and TOTAL=<amount>,
where amount = units * price.
"""
import argparse
import csv
import os
import sys


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", required=True, help="the sales CSV")
    parser.add_argument("--out", required=True, help="the summary file to write")
    args = parser.parse_args()
    totals: dict[str, int] = {}
    rows = 0
    with open(args.input, newline="") as f:
        for row in csv.DictReader(f):
            rows += 1
            amount = int(row["units"]) * int(row["price"])
            totals[row["region"]] = totals.get(row["region"], 0) + amount
    lines = [f"ROWS={rows}"]
    lines += [f"REGION {region}={totals[region]}" for region in sorted(totals)]
    lines.append(f"TOTAL={sum(totals.values())}")
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {args.out}: {rows} rows, {len(totals)} regions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
