#!/usr/bin/env bash
# Installs OpenSSH's server for the `--docker-host ssh://` test, which starts its own sshd on a
# loopback port (test/integration/ssh-server.ts); the package's own service is kept from starting
# (scripts/apt-install.sh). Idempotent: does nothing when present.
set -euo pipefail

if [ -x /usr/sbin/sshd ]; then
  echo "sshd already installed: $(/usr/sbin/sshd -V 2>&1 | head -1 || echo unknown version)"
  exit 0
fi
bash "$(dirname "$0")/apt-install.sh" provision-sshd openssh-server
echo "installed: $(/usr/sbin/sshd -V 2>&1 | head -1)"
