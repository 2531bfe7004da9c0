#!/usr/bin/env python3
"""Draws one instance of skill_run_v1_report: generate SEED OUTDIR (see README.md's report section).

Writes the ticket export the skill summarizes (data/tickets.csv), the summary's schema pinned to
what that export sums to (.bench/summary.schema.json) and the values the manifest's
{{instance.*}} name (.bench/instance.json). Deterministic: everything comes from
random.Random(SEED), and nothing reads the clock, the environment or the file system.
"""

import datetime
import json
import random
import sys
from pathlib import Path

TEAMS = ["accounts", "billing", "infra", "mobile", "platform", "search", "web"]
STATUSES = ["open", "pending", "closed"]
PRIORITIES = ["low", "normal", "high", "urgent"]


def main() -> None:
    seed, out = sys.argv[1], Path(sys.argv[2])
    rng = random.Random(f"skill_run_v1_report:{seed}")
    week = rng.randint(1, 52)
    monday = datetime.date.fromisocalendar(2026, week, 1)
    total = rng.randint(14, 40)
    first = rng.randint(10, 89) * 100 + 1
    teams = sorted(rng.sample(TEAMS, rng.randint(2, 4)))
    rows = []
    for i in range(total):
        status = rng.choices(STATUSES, weights=[3, 2, 5])[0]
        priority = rng.choices(PRIORITIES, weights=[2, 6, 2, 2])[0]
        opened = monday + datetime.timedelta(days=rng.randint(0, 6))
        rows.append([f"T-{first + i}", opened.isoformat(), status, priority, rng.choice(teams)])
    # At least one open urgent ticket, so the report always has one to list.
    if not any(r[2] != "closed" and r[3] == "urgent" for r in rows):
        rows[rng.randrange(total)][2:4] = ["open", "urgent"]
    urgent = sorted(r[0] for r in rows if r[2] != "closed" and r[3] == "urgent")
    (out / "data").mkdir(parents=True)
    (out / ".bench").mkdir()
    lines = ["id,opened,status,priority,team"] + [",".join(r) for r in rows]
    (out / "data" / "tickets.csv").write_text("\n".join(lines) + "\n")
    schema = {
        "type": "object",
        "required": ["total", "by_status", "by_priority", "by_team", "open_urgent"],
        "properties": {
            "total": {"type": "integer", "const": total},
            "by_status": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}},
            "by_priority": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}},
            "by_team": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}},
            "open_urgent": {"type": "array", "items": {"type": "string"}, "const": urgent},
        },
    }
    (out / ".bench" / "summary.schema.json").write_text(json.dumps(schema, indent=2) + "\n")
    instance = {"week": week, "title": f"Week {week}", "total": total, "open_urgent": len(urgent)}
    (out / ".bench" / "instance.json").write_text(json.dumps(instance, indent=2, sort_keys=True) + "\n")


main()
