#!/usr/bin/env bash
# The README's first command: on a fresh Debian/Ubuntu machine, provision what a run needs
# (Docker engine, npm packages), then run agent-bench with the given arguments.
# With no model server on 127.0.0.1 the run uses the built-in reference agent and says so.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! docker info >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ]; then bash scripts/provision-docker.sh
  else echo "agent-bench: no Docker engine answers; run: sudo bash scripts/provision-docker.sh" >&2; exit 3
  fi
fi
[ -d node_modules ] && [ -f dist/src/cli/main.js ] || npm ci --no-audit --no-fund >&2
exec node bin/agent-bench "$@"
