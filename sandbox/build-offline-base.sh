#!/usr/bin/env bash
# Builds the sandbox's base root filesystem without a container registry: debootstrap (minbase plus
# sandbox/packages.txt) from the Debian mirror this host already uses, packed as a tar for
# `docker import`. Needs root and debootstrap (Debian/Ubuntu: apt-get install debootstrap).
# Usage: build-offline-base.sh OUT.tar   (env: AGENT_BENCH_DEBIAN_MIRROR, AGENT_BENCH_DEBIAN_SUITE)
set -euo pipefail

out=${1:?usage: build-offline-base.sh OUT.tar}
here=$(cd "$(dirname "$0")" && pwd)
suite=${AGENT_BENCH_DEBIAN_SUITE:-bookworm}

if [ "$(id -u)" -ne 0 ]; then
  echo "build-offline-base: debootstrap needs root (run as root or with sudo)" >&2
  exit 1
fi
if ! command -v debootstrap >/dev/null 2>&1; then
  echo "build-offline-base: debootstrap is not installed (apt-get install debootstrap, or run scripts/provision-docker.sh)" >&2
  exit 1
fi

# The mirror the host's apt uses is the one most likely reachable (a proxy or local mirror on
# offline machines); deb.debian.org is the fallback.
host_mirror() {
  local uri
  # deb822 stanzas (*.sources): the URIs of the first stanza whose Suites list holds $suite.
  uri=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk -v s="$suite" '
    BEGIN { RS = "" }
    { u = ""; ok = 0; n = split($0, line, "\n")
      for (i = 1; i <= n; i++) {
        m = split(line[i], f, /[ \t]+/)
        if (f[1] == "URIs:") u = f[2]
        if (f[1] == "Suites:") for (j = 2; j <= m; j++) if (f[j] == s) ok = 1
      }
      if (ok && u != "") { print u; exit } }')
  if [ -z "$uri" ]; then
    # One-line format: deb [options] URI SUITE COMPONENTS...
    uri=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | sed -E 's/\[[^]]*\]//' |
      awk -v s="$suite" '$1 == "deb" && $3 == s { print $2; exit }')
  fi
  echo "${uri:-http://deb.debian.org/debian}"
}
mirror=${AGENT_BENCH_DEBIAN_MIRROR:-$(host_mirror)}
packages=$(grep -vE '^[[:space:]]*(#|$)' "$here/packages.txt" | tr -s '[:space:]' ',' | sed 's/,$//')

root=$(mktemp -d "${TMPDIR:-/tmp}/agent-bench-rootfs.XXXXXX")
# --one-file-system: if debootstrap died with /proc or /dev still mounted inside, leave those alone.
trap 'rm -rf --one-file-system "$root"' EXIT

echo "build-offline-base: debootstrap $suite from $mirror (packages: $packages)"
debootstrap --variant=minbase --include="$packages" "$suite" "$root" "$mirror"

# Caches and logs make the image bigger and its content depend on the build day; nothing needs them.
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/var/log/* "$root"/tmp/*
# Documentation no tool reads (as in debian:*-slim); copyright notices stay.
rm -rf "$root"/usr/share/man/* "$root"/usr/share/info/* "$root"/usr/share/locale/*
find "$root/usr/share/doc" -type f ! -name copyright -delete
# debootstrap copies the host's resolv.conf and hostname; the container gets its own.
: >"$root/etc/resolv.conf"
echo sandbox >"$root/etc/hostname"

tar --numeric-owner --xattrs -C "$root" -cf "$out" .
echo "build-offline-base: wrote $out ($(du -h "$out" | cut -f1))"
