#!/usr/bin/env python3
"""summarize: counts support tickets by status, priority and team, as JSON."""
import argparse
import csv
import json
import os
import sys
from collections import Counter


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", required=True, help="tickets CSV (id, opened, status, priority, team)")
    parser.add_argument("--out", required=True, help="JSON summary to write")
    args = parser.parse_args()
    with open(args.data, newline="") as f:
        rows = list(csv.DictReader(f))
    summary = {
        "total": len(rows),
        "by_status": dict(sorted(Counter(r["status"] for r in rows).items())),
        "by_priority": dict(sorted(Counter(r["priority"] for r in rows).items())),
        "by_team": dict(sorted(Counter(r["team"] for r in rows).items())),
        "open_urgent": sorted(r["id"] for r in rows if r["status"] != "closed" and r["priority"] == "urgent"),
    }
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(summary, f, indent=2)
        f.write("\n")
    print(f"wrote {args.out}: {summary['total']} tickets")
    return 0


if __name__ == "__main__":
    sys.exit(main())
