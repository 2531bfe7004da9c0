#!/bin/sh
# publish_report SUMMARY OUT_MD: wraps a csv_summarize summary in a Markdown report.
set -eu
if [ "$#" -ne 2 ]; then
  echo "usage: sh publish_report.sh SUMMARY OUT_MD" >&2
  exit 2
fi
summary=$1
out=$2
[ -f "$summary" ] || { echo "publish_report: no summary at $summary (run csv_summarize first)" >&2; exit 1; }
mkdir -p "$(dirname "$out")"
{
  echo "# Sales Report"
  echo
  echo '```'
  cat "$summary"
  echo '```'
} >"$out"
echo "published $out"
