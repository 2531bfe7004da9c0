#!/usr/bin/env bash
# Makes sure a Docker engine answers, installing and starting one on Debian/Ubuntu if needed, and
# that debootstrap (the offline image build) and strace (the task tests) are present. Idempotent: does nothing when
# both are already there. Used by CI and by users on Debian; needs root for anything it installs.
# The engine is started without bridge networking or iptables rules: sandboxes use
# NetworkMode none, and CI machines often cannot change the host's firewall.
# Env: AGENT_BENCH_DOCKERD_LOG (default /var/log/agent-bench-dockerd.log).
set -euo pipefail

log=${AGENT_BENCH_DOCKERD_LOG:-/var/log/agent-bench-dockerd.log}
wait_seconds=60

say() { echo "provision-docker: $*"; }
as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else say "need root for: $*"; exit 1
  fi
}

engine_answers() { docker info >/dev/null 2>&1; }

apt_updated=no
apt_install() {
  if ! command -v apt-get >/dev/null 2>&1; then
    say "apt-get not found: install $* yourself (this script only knows Debian/Ubuntu)"
    exit 1
  fi
  if [ "$apt_updated" = no ]; then
    as_root apt-get update -q
    apt_updated=yes
  fi
  # With recommends, as verified on our machines (cgroupfs-mount, xz-utils...).
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@"
}

missing=()
command -v debootstrap >/dev/null 2>&1 || missing+=(debootstrap)
# The task tests trace their local stand-in runs with the host's strace, as the sandbox does.
command -v strace >/dev/null 2>&1 || missing+=(strace)
if ! engine_answers && ! command -v dockerd >/dev/null 2>&1; then missing+=(docker.io); fi
if [ "${#missing[@]}" -gt 0 ]; then
  say "installing ${missing[*]}"
  apt_install "${missing[@]}"
fi

if engine_answers; then
  say "engine answers ($(docker version --format '{{.Server.Version}}' 2>/dev/null || echo unknown))"
  exit 0
fi

if [ -n "${DOCKER_HOST:-}" ]; then
  say "DOCKER_HOST=$DOCKER_HOST does not answer; not starting a local engine in its place"
  exit 1
fi

if pgrep -x dockerd >/dev/null 2>&1; then
  say "dockerd is running but not answering yet; waiting"
else
  say "starting dockerd (log: $log)"
  as_root mkdir -p "$(dirname "$log")"
  # setsid + nohup: the engine must outlive this script and the CI step that ran it.
  as_root sh -c 'exec setsid nohup dockerd --bridge=none --iptables=false --ip6tables=false >>"$1" 2>&1 </dev/null' \
    provision-docker "$log" &
fi

for _ in $(seq 1 "$wait_seconds"); do
  if engine_answers; then
    say "engine answers ($(docker version --format '{{.Server.Version}}' 2>/dev/null || echo unknown))"
    exit 0
  fi
  sleep 1
done
say "dockerd did not answer within ${wait_seconds}s (if it runs, can this user open its socket?); last lines of $log:"
tail -n 20 "$log" >&2 || true
exit 1
