#!/bin/sh
# make_report --title TITLE --summary SUMMARY_JSON --out REPORT_PDF
# Renders the weekly report to PDF with LaTeX (pdflatex and the report class must be installed).
# Slow: a full TeX run per report.
set -eu
title= summary= out=
while [ "$#" -gt 0 ]; do
  case "$1" in
    --title) title=$2; shift 2 ;;
    --summary) summary=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "make_report: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -n "$title" ] && [ -n "$summary" ] && [ -n "$out" ] || {
  echo "usage: make_report.sh --title TITLE --summary SUMMARY_JSON --out REPORT_PDF" >&2
  exit 2
}
command -v pdflatex >/dev/null || { echo "make_report: pdflatex is not installed" >&2; exit 127; }
work=$(mktemp -d)
python3 "$(dirname "$0")/to_latex.py" --title "$title" --summary "$summary" >"$work/report.tex"
(cd "$work" && pdflatex -interaction=nonstopmode report.tex >/dev/null)
mkdir -p "$(dirname "$out")"
cp "$work/report.pdf" "$out"
echo "rendered $out"
