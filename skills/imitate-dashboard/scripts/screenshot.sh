#!/bin/sh
# screenshot PAGE.html --out PREVIEW.png: renders the page at 1280x800 in headless Chromium.
# Slow (starts a browser) and needs chromium on PATH.
set -eu
page=${1:-}
[ "${2:-}" = --out ] && [ -n "${3:-}" ] && [ -n "$page" ] || {
  echo "usage: sh screenshot.sh PAGE.html --out PREVIEW.png" >&2
  exit 2
}
out=$3
command -v chromium >/dev/null || { echo "screenshot: chromium is not installed" >&2; exit 127; }
mkdir -p "$(dirname "$out")"
chromium --headless --disable-gpu --window-size=1280,800 --screenshot="$out" "file://$(realpath "$page")" >/dev/null 2>&1
echo "saved $out (1280x800)"
