#!/usr/bin/env bash
# Installs Debian's Chromium for the dashboard's browser tests and `report radar --png` (playwright-core
# drives /usr/bin/chromium; it never downloads a browser of its own). Idempotent: does nothing when present.
set -euo pipefail

if [ -x /usr/bin/chromium ]; then
  echo "chromium already installed: $(/usr/bin/chromium --version 2>/dev/null || echo unknown version)"
  exit 0
fi

# fonts-dejavu-core: screenshots need at least one font with wide glyph coverage.
bash "$(dirname "$0")/apt-install.sh" provision-chromium chromium fonts-dejavu-core
echo "installed: $(/usr/bin/chromium --version)"
