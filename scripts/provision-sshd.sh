#!/usr/bin/env bash
# Installs OpenSSH's server for the `--docker-host ssh://` test, which starts its own sshd on a
# loopback port (test/integration/ssh-server.ts). The package's own service is kept from starting
# (policy-rc.d): nothing may listen beyond loopback. Idempotent: does nothing when present.
set -euo pipefail

if [ -x /usr/sbin/sshd ]; then
  echo "sshd already installed: $(/usr/sbin/sshd -V 2>&1 | head -1 || echo unknown version)"
  exit 0
fi

sudo=''
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "provision-sshd: need root or sudo to install openssh-server" >&2; exit 1; }
  sudo='sudo'
fi

policy=/usr/sbin/policy-rc.d
made_policy=0
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\n# provision-sshd: no service starts while packages install\nexit 101\n' | $sudo tee "$policy" >/dev/null
  $sudo chmod 0755 "$policy"
  made_policy=1
fi
trap '[ "$made_policy" = 1 ] && $sudo rm -f "$policy"' EXIT

export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends openssh-server >/dev/null
echo "installed: $(/usr/sbin/sshd -V 2>&1 | head -1)"
