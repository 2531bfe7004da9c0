#!/usr/bin/env bash
# Installs Debian's Chromium for the dashboard's browser tests and `report radar --png` (playwright-core
# drives /usr/bin/chromium; it never downloads a browser of its own). Idempotent: does nothing when present.
set -euo pipefail

if [ -x /usr/bin/chromium ]; then
  echo "chromium already installed: $(/usr/bin/chromium --version 2>/dev/null || echo unknown version)"
  exit 0
fi

sudo=''
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "provision-chromium: need root or sudo to install chromium" >&2; exit 1; }
  sudo='sudo'
fi

export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# fonts-dejavu-core: screenshots need at least one font with wide glyph coverage.
$sudo apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
echo "installed: $(/usr/bin/chromium --version)"
