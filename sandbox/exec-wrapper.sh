#!/bin/bash
# agent-bench exec wrapper: every command the harness or the agent runs in the sandbox goes
# through it (installed read-only at /usr/local/lib/agent-bench/exec-wrapper; the host side is
# src/sandbox/docker/wrapper.ts). It runs as root, so nothing the agent does (`kill -9 -1`
# included) can take it down; the command itself runs as the requested user. Because Docker has
# no API to kill an exec, and an attached exec stream stays open while any process holds its
# stdout:
#  - the command runs under `timeout -s KILL`: GNU timeout kills its whole process group, so the
#    command's background jobs die with it; --verbose writes the reason before the kill;
#  - its stdout/stderr are files in a fresh root-only directory, opened here and inherited, never
#    the exec's pipes: a background job cannot hold the stream open (the exec ends as soon as the
#    command's shell does), and the agent cannot reach another command's files by path;
#  - then one header line and the head and tail of each file are printed, so no more than the
#    cap ever crosses to the host.
#  - with TRACE=1 the command runs under strace (see "Tracing" below), its trace printed too.
# Args: LIMIT_SECONDS HEAD_BYTES TAIL_BYTES CWD USER(agent|checker|root) TRACK_CWD FEED_STDIN TRACE
#   COMMAND...   TRACK_CWD=1: the command gets fd 3 open on a file for its final working directory.
# Output: `agent-bench-exec RC TIMED_OUT STDOUT_SIZE STDERR_SIZE CWD_BASE64|- OUTPUT_FULL
#   TRACE_SIZE|- TRACE_CUT`, then TRACE_SIZE bytes of trace, then the capped stdout on stdout; the
#   capped stderr on stderr. The trace comes first: only root can write it, so its size is exact.
set -u
limit=$1 head=$2 tail=$3 cwd=$4 user=$5 track=$6 feed=$7 trace=$8
shift 8
trace_cap=$((4 * 1024 * 1024))
[ "$feed" = 1 ] || exec </dev/null
d=$(mktemp -d /run/agent-bench/x.XXXXXXXXXX) || {
  echo "agent-bench: cannot create an output directory in /run/agent-bench" >&2
  exit 125
}
trap 'rm -rf -- "$d"' EXIT
# Background jobs of earlier commands keep writing to their (deleted) output files; if they have
# filled this mount, the header says so rather than output going missing without a word.
avail=$(stat -f -c '%a %S' /run/agent-bench) || avail='1 1048576'
full=0
[ $((${avail% *} * ${avail#* })) -lt 1048576 ] && full=1
: >"$d/c"
[ "$track" = 1 ] && exec 3>"$d/c"
as=()
[ "$user" = agent ] && as=(setpriv --reuid=1000 --regid=1000 --clear-groups --)
[ "$user" = checker ] && as=(setpriv --reuid=1001 --regid=1001 --clear-groups --)

# Tracing. strace runs as root between timeout and the user switch: it attaches before the command
# drops to the user (no CAP_SYS_PTRACE needed), the agent can neither signal it nor reach its file
# in $d, and the file is not inherited (strace opens it close-on-exec). -DD: the tracer is a
# detached grandchild in a process group of its own, so the command stays timeout's child (its exit
# ends the wait while traced background jobs run on) and the timeout's kill of the group spares the
# tracer, which records it. -I2: TERM makes it detach cleanly. `?`: calls some architectures lack.
# signal=!SIGCHLD: "killed by" lines need the signal in the set; the SIGCHLD deliveries are noise.
# close, dup and fcntl: the host follows descriptors to resolve paths relative to them.
# The soft file size limit, raised again just before the command, caps the trace: past it the
# tracer dies and the command goes on untraced.
tracer=()
if [ "$trace" = 1 ]; then
  : >"$d/s"
  calls=execve,execveat,chdir,fchdir,?open,openat,openat2,?creat,close,close_range,dup,?dup2,dup3,fcntl
  calls+=,?rename,renameat,renameat2,?unlink,unlinkat,?rmdir,clone,clone3,?fork,?vfork
  tracer=(strace -DD -I2 -f -q -s 4096 -o "$d/s" -e 'signal=!SIGCHLD' -e "trace=$calls")
fi

# Past the user switch the command cannot open files in $d: fd 4 carries its stderr in, and
# timeout's own stderr (the "sending signal" line) stays apart in $d/t. The group's stderr is
# /dev/null so that this shell's "Killed" notice stays out of the output.
{
  (
    [ "$trace" = 1 ] && ulimit -S -f $((trace_cap / 1024))
    exec timeout --verbose -s KILL "$limit" "${tracer[@]}" "${as[@]}" /bin/bash -c '
    ulimit -S -f unlimited 2>/dev/null
    exec 2>&4 4>&-
    cd -- "$1" 2>/dev/null || { printf "agent-bench: cannot change directory to %s\n" "$1" >&2; exit 126; }
    shift
    exec "$@"' agent-bench "$cwd" "$@"
  ) >"$d/o" 2>"$d/t" 4>"$d/e"
  rc=$?
} 2>/dev/null
[ "$track" = 1 ] && exec 3>&-
timed=0
if grep -q 'sending signal' "$d/t"; then timed=1; elif [ -s "$d/t" ]; then cat "$d/t" >>"$d/e"; fi

# The tracer outlives the command while traced background jobs run: what they do next is no part of
# this command, so after a moment (a job started at the very end gets to exec) it detaches.
tsz=- tcut=0
if [ "$trace" = 1 ]; then
  if tracers=($(pgrep -u 0 -f -- "^strace .* -o $d/s ")); then
    sleep 0.02
    kill -TERM "${tracers[@]}" 2>/dev/null
    for ((i = 0; i < 200; i++)); do [ -e "/proc/${tracers[0]}" ] || break; sleep 0.005; done
  fi
  tsz=$(stat -c %s -- "$d/s")
  [ "$tsz" -ge "$trace_cap" ] && tcut=1
fi

# Exactly SIZE bytes as measured now, even if a background job is still appending.
emit() {
  if [ "$2" -le $((head + tail)) ]; then head -c "$2" -- "$1"; return; fi
  head -c "$head" -- "$1"
  dd if="$1" bs=65536 iflag=skip_bytes,count_bytes skip=$(($2 - tail)) count="$tail" status=none
}
osz=$(stat -c %s -- "$d/o")
esz=$(stat -c %s -- "$d/e")
c=-
[ -s "$d/c" ] && c=$(head -c 8192 -- "$d/c" | base64 -w0)
printf 'agent-bench-exec %s %s %s %s %s %s %s %s\n' "$rc" "$timed" "$osz" "$esz" "$c" "$full" "$tsz" "$tcut"
[ "$tsz" = - ] || head -c "$tsz" -- "$d/s"
emit "$d/o" "$osz"
emit "$d/e" "$esz" >&2
