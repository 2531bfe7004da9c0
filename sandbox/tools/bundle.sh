#!/bin/bash
# Builds the sandbox's tools bundle: everything the harness runs inside a container (the exec
# wrapper and its bash, dash, strace, timeout, setpriv and coreutils; python with its standard
# library for the report, the relay and the file tools) as copies of this image's own binaries
# that need nothing from the image they run in but a kernel. Each ELF program gets the bundle's
# loader as its interpreter and the bundle's lib/ as its search path (patchelf), and every library
# it needs is copied there; python finds its standard library next to itself (lib/python3.X).
# The sandbox image carries the bundle at its fixed place; a Harbor task's own image gets it as a
# read-only volume populated from the sandbox image (src/sandbox/harbor/tools-volume.ts), mounted
# at the same place, so the same paths work in both.
# Usage: bundle.sh DIR   (DIR: where the bundle lives at run time, e.g. /opt/agent-bench)
set -euo pipefail
dest=${1:?usage: bundle.sh DIR}
mkdir -p "$dest/bin" "$dest/lib"

# Programs the harness's own scripts call (src/sandbox/docker/*.ts, sandbox/exec-wrapper.sh,
# the Harbor supervisor and trial): resolved here, run from the bundle there.
programs=(bash dash strace timeout setpriv mktemp rm sleep tar gzip find sort diff ipcrm cat cp ln
  mkdir chmod kill env true false ls mv readlink stat head tail wc id sed grep dirname basename
  touch printf test tr python3)

loader=$(patchelf --print-interpreter /bin/bash)
cp -L "$loader" "$dest/lib/$(basename "$loader")"
interp="$dest/lib/$(basename "$loader")"

# The shared libraries an ELF file needs, as ldd resolves them here (absolute paths).
needs() {
  ldd "$1" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 }'
}

libs=()
for name in "${programs[@]}"; do
  src=$(type -P "$name")
  src=$(readlink -f "$src")
  cp "$src" "$dest/bin/$name"
  mapfile -t -O "${#libs[@]}" libs < <(needs "$src")
done
ln -s dash "$dest/bin/sh"

# Python: the interpreter finds lib/python3.X/os.py one level up from its own directory and takes
# that as its prefix. Only the standard library (no dist-packages, no tests, no GUI).
pyver=$(python3 -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
stdlib=/usr/lib/python$pyver
mkdir -p "$dest/lib/python$pyver"
tar -C "$stdlib" -c --exclude=./test --exclude=./idlelib --exclude=./tkinter --exclude=./turtledemo \
  --exclude=./ensurepip --exclude=./lib2to3 --exclude=./pydoc_data --exclude='./config-*' \
  --exclude=./dist-packages --exclude=./site-packages . | tar -C "$dest/lib/python$pyver" -x
for so in "$dest/lib/python$pyver"/lib-dynload/*.so; do
  mapfile -t -O "${#libs[@]}" libs < <(needs "$so")
done

# Each library once, under the name the programs ask for; their own needs were listed by ldd.
for lib in $(printf '%s\n' "${libs[@]}" | sort -u); do
  base=$(basename "$lib")
  [ "$base" = "$(basename "$loader")" ] && continue
  [ -e "$dest/lib/$base" ] || cp -L "$lib" "$dest/lib/$base"
done

# DT_RPATH (not RUNPATH): it also serves the libraries' own needs and the modules python loads,
# and it comes before LD_LIBRARY_PATH, which a task's image may set.
for f in "$dest"/bin/*; do
  [ -L "$f" ] && continue
  patchelf --set-interpreter "$interp" --force-rpath --set-rpath "$dest/lib" "$f"
done
for f in "$dest"/lib/*.so*; do
  [ "$f" = "$interp" ] && continue
  patchelf --force-rpath --set-rpath "$dest/lib" "$f"
done

# The harness's python is root's: the agent's environment is the image's, python or none. (The
# agent's shell is the bundle's bash, and its setup the bundle's cp: those stay open to all.)
chmod 0700 "$dest/bin/python3"

# Proof, here, that the bundle stands on its own: no library of the image is loaded.
for name in bash dash strace timeout setpriv python3; do
  if LD_DEBUG=libs "$dest/bin/$name" --version 2>&1 >/dev/null | grep -E 'calling init: /' |
    grep -v "^.*calling init: $dest/" | grep -q .; then
    echo "bundle.sh: $name loads a library from outside $dest" >&2
    exit 1
  fi
done
"$dest/bin/python3" -I -S -c 'import sys, os, json, subprocess, selectors, signal, base64, hashlib, stat; assert sys.prefix == sys.argv[1], sys.prefix' "$dest"
echo "bundle.sh: $(du -sh "$dest" | cut -f1) in $dest"
