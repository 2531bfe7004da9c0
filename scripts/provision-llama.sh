#!/usr/bin/env bash
# Builds a CPU-only llama-server and llama-quantize from the llama.cpp source that node-llama-cpp ships
# (a git bundle under node_modules/node-llama-cpp/llama/), with no network, and caches them outside the
# clone, keyed by the llama.cpp commit: a second run (or a second clone) finds them and does nothing.
# The real-server integration tests use them; they skip, saying so, when this script did not succeed.
#
# Prints the cache folder on its last line. Exit 0 when the binaries are there, 1 when the build failed
# (the reason is printed; CI goes on without the real-server tests).
# Env: AGENT_BENCH_CACHE (default ~/.cache/agent-bench), AGENT_BENCH_LLAMA_JOBS (default: nproc),
#      AGENT_BENCH_LLAMA_BUILD_TIMEOUT seconds (default 2400).
set -euo pipefail
cd "$(dirname "$0")/.."

say() { echo "provision-llama: $*" >&2; }

bundle=node_modules/node-llama-cpp/llama/gitRelease.bundle
if [ ! -f "$bundle" ]; then
  say "no llama.cpp source: $bundle is missing (run npm ci first; node-llama-cpp is an optional dependency)"
  exit 1
fi
for tool in git cmake make g++; do
  command -v "$tool" >/dev/null 2>&1 || { say "$tool not found: cannot build llama.cpp"; exit 1; }
done

commit=$(git bundle list-heads "$bundle" | awk '$2 == "HEAD" { print $1 }')
[ -n "$commit" ] || { say "cannot read the commit of $bundle"; exit 1; }
cache_root=${AGENT_BENCH_CACHE:-$HOME/.cache/agent-bench}
dest="$cache_root/llama.cpp/$commit"

if [ -x "$dest/bin/llama-server" ] && [ -x "$dest/bin/llama-quantize" ] && [ -f "$dest/vocab/ggml-vocab-qwen2.gguf" ] \
  && [ -f "$dest/vocab/Qwen-Qwen2.5-7B-Instruct.jinja" ]; then
  say "cached build of llama.cpp $commit"
  echo "$dest"
  exit 0
fi

jobs=${AGENT_BENCH_LLAMA_JOBS:-$(nproc)}
limit=${AGENT_BENCH_LLAMA_BUILD_TIMEOUT:-2400}
# The build folder lives in the cache and survives a failed or timed-out run: the next run (or the
# next CI on this machine) resumes it where make stopped, instead of starting the 20-35 minutes over.
# It is removed once the binaries are cached.
work="$cache_root/llama.cpp/.build-$commit"
mkdir -p "$work"
# One build at a time per commit: a second run waits for the first, then finds its cache.
exec 9>"$work.lock"
flock 9
if [ -x "$dest/bin/llama-server" ] && [ -x "$dest/bin/llama-quantize" ]; then
  say "cached build of llama.cpp $commit (built while this run waited)"
  echo "$dest"
  exit 0
fi

if [ "$(git -C "$work/src" rev-parse HEAD 2>/dev/null)" != "$commit" ]; then
  rm -rf "$work/src" "$work/build"
  git -c advice.detachedHead=false clone -q "$bundle" "$work/src"
  git -C "$work/src" checkout -q "$commit"
fi
if [ -f "$work/build/CMakeCache.txt" ]; then
  say "resuming the build of llama.cpp $commit in $work (CPU only, $jobs jobs)"
else
  say "building llama.cpp $commit (CPU only, $jobs jobs; about 20 minutes on 2 cores, resumable)"
  # Static, portable (no -march=native: the cache may be read by another machine), no curl, no tests.
  cmake -S "$work/src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
    -DGGML_NATIVE=OFF -DLLAMA_CURL=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
    -DLLAMA_BUILD_SERVER=ON -DGGML_OPENMP=OFF >"$work/cmake.log" 2>&1 \
    || { tail -20 "$work/cmake.log" >&2; rm -rf "$work/build"; say "cmake configure failed"; exit 1; }
fi
started=$(date +%s)
if ! timeout "$limit" cmake --build "$work/build" --target llama-server llama-quantize -j "$jobs" >"$work/build.log" 2>&1; then
  tail -20 "$work/build.log" >&2
  say "build failed or took over ${limit}s; what was built is kept in $work, and the next run resumes it"
  exit 1
fi
say "built in $(( $(date +%s) - started ))s"

# Assemble in a temporary folder and move it in place, so a half-written cache is never found.
staging="$cache_root/llama.cpp/.$commit.partial"
rm -rf "$staging"
mkdir -p "$staging/bin" "$staging/vocab"
cp "$work/build/bin/llama-server" "$work/build/bin/llama-quantize" "$staging/bin/"
cp "$work/src/models/ggml-vocab-qwen2.gguf" "$staging/vocab/"
# Qwen2.5's chat template with tools, as llama.cpp tests it (scripts/make-qwen-gguf.mjs needs it).
cp "$work/src/models/templates/Qwen-Qwen2.5-7B-Instruct.jinja" "$staging/vocab/" \
  || { say "llama.cpp $commit has no models/templates/Qwen-Qwen2.5-7B-Instruct.jinja"; exit 1; }
echo "$commit" >"$staging/COMMIT"
rm -rf "$dest"
mv "$staging" "$dest"
rm -rf "$work"
say "cached in $dest"
echo "$dest"
