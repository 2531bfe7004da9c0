#!/usr/bin/env python3
"""to_latex: the LaTeX source of the weekly report, from a summarize JSON file."""
import argparse
import json

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("--title", required=True)
parser.add_argument("--summary", required=True)
args = parser.parse_args()
with open(args.summary) as f:
    s = json.load(f)
print(r"\documentclass{report}\begin{document}")
print(r"\section*{%s}" % args.title)
print(r"Tickets this week: %d\par" % s["total"])
for key in ("by_status", "by_priority", "by_team"):
    print(r"\subsection*{%s}" % key.replace("_", " "))
    for name, count in s[key].items():
        print(r"%s: %d\par" % (name, count))
print(r"\end{document}")
