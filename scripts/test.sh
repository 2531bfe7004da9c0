#!/usr/bin/env bash
# The README's test command: provisions the Docker engine and npm packages when missing, then runs
# the whole suite (unit + integration against real Docker). Ends with "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
if ! docker info >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ]; then bash scripts/provision-docker.sh
  else echo "no Docker engine answers; run: sudo bash scripts/provision-docker.sh" >&2; exit 3
  fi
fi
if ! command -v strace >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then bash scripts/provision-docker.sh; fi
if [ ! -x /usr/bin/chromium ] && [ "$(id -u)" -eq 0 ]; then bash scripts/provision-chromium.sh; fi
[ -d node_modules ] || npm ci --no-audit --no-fund
exec npx vitest run "$@"
