#!/usr/bin/env bash
# Installs Debian packages for the provision scripts: as root, or through sudo. No package's service
# starts while it installs (policy-rc.d): nothing the tests need may listen beyond loopback, and they
# start what they use themselves. Usage: apt-install.sh NAME PACKAGE... (NAME: who asks, for errors).
set -euo pipefail
who=$1
shift

sudo=''
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "$who: need root or sudo to install $*" >&2; exit 1; }
  sudo='sudo'
fi

policy=/usr/sbin/policy-rc.d
made_policy=0
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\n# %s: no service starts while packages install\nexit 101\n' "$who" | $sudo tee "$policy" >/dev/null
  $sudo chmod 0755 "$policy"
  made_policy=1
fi
trap '[ "$made_policy" = 1 ] && $sudo rm -f "$policy"' EXIT

export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
