#!/bin/bash
# agent-bench exec wrapper: every command the harness or the agent runs in the sandbox goes
# through it (installed read-only at /opt/agent-bench/exec-wrapper, in the tools bundle of
# sandbox/tools/bundle.sh, and run by the bundle's bash; the host side is
# src/sandbox/docker/wrapper.ts; the container's exec relay, sandbox/relay/, starts it, or an
# engine exec where there is no relay). It runs as root, so nothing the agent does (`kill -9 -1`
# included) can take it down; the command itself runs as the requested user. Because Docker has
# no API to kill an exec, and an attached exec stream stays open while any process holds its
# stdout:
#  - the command runs under `timeout -s KILL`: GNU timeout kills its whole process group, so the
#    command's background jobs die with it; --verbose writes the reason before the kill;
#  - its stdout/stderr are files in a fresh root-only directory, opened here and inherited, never
#    the exec's pipes: a background job cannot hold the stream open (the exec ends as soon as the
#    command's shell does), and the agent cannot reach another command's files by path;
#  - then the report (report/exec_report.py, root) prints one header line and the head and tail
#    of each file, so no more than the cap ever crosses to the host. It is started before the
#    command (its start-up overlaps the command) and told the exit status on a pipe the command
#    does not hold; it is the only writer of the exec's stdout and stderr from then on.
#  - with TRACE=1 the command runs under strace (see "Tracing" below), its trace printed too;
#  - with a SNAPSHOT spec the report then snapshots the workspace (report/workspace_snapshot.py)
#    and prints that too: the turn's snapshot costs no exec of its own.
# Args: LIMIT_SECONDS HEAD_BYTES TAIL_BYTES CWD USER(agent|checker|root) TRACK_CWD FEED_STDIN TRACE
#   SNAPSHOT(spec|-) COMMAND...   TRACK_CWD=1: the command gets fd 3 open on a file for its final
#   working directory.
# Output: `agent-bench-exec RC TIMED_OUT STDOUT_SIZE STDERR_SIZE CWD_BASE64|- OUTPUT_FULL
#   TRACE_SIZE|- TRACE_CUT SNAPSHOT_SIZE|- ALIVE(-|none|PID,PID...)`, then TRACE_SIZE bytes of trace, then SNAPSHOT_SIZE
#   bytes of snapshot, then the capped stdout on stdout; the capped stderr on stderr. Trace and
#   snapshot come first: only root writes them, so their sizes are exact.
set -u
# Every program the wrapper runs itself is the bundle's, by path: the image's PATH and programs
# serve the command alone (a task's image may have no python, no GNU tools, no bash).
tools=${0%/*}
bin=$tools/bin
limit=$1 head=$2 tail=$3 cwd=$4 user=$5 track=$6 feed=$7 trace=$8 snap=$9
shift 9
trace_cap=$((4 * 1024 * 1024))
[ "$feed" = 1 ] || exec </dev/null
report_cap=0
[ "$trace" = 1 ] && report_cap=$trace_cap
# An agent's command: the report lists the agent's processes still running after it (survivors).
watch=-
[ "$user" = agent ] && watch=1000
# The report first: it learns the directory with the exit status.
exec {report}> >(exec "$bin/python3" -I -S -c 'import sys; sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
import exec_report; exec_report.main(sys.argv[2:])' "$tools/report" "$head" "$tail" "$report_cap" "$snap" "$watch")
report_pid=$!
d=$("$bin/mktemp" -d /run/agent-bench/x.XXXXXXXXXX) || {
  echo "agent-bench: cannot create an output directory in /run/agent-bench" >&2
  exit 125
}
trap '"$bin/rm" -rf -- "$d"' EXIT
: >"$d/c"
[ "$track" = 1 ] && exec 3>"$d/c"
as=()
[ "$user" = agent ] && as=("$bin/setpriv" --reuid=1000 --regid=1000 --clear-groups --)
[ "$user" = checker ] && as=("$bin/setpriv" --reuid=1001 --regid=1001 --clear-groups --)

# Tracing. strace runs as root between timeout and the user switch: it attaches before the command
# drops to the user (no CAP_SYS_PTRACE needed), the agent can neither signal it nor reach its file
# in $d, and the file is not inherited (strace opens it close-on-exec). -DD: the tracer is a
# detached grandchild in a process group of its own, so the command stays timeout's child (its exit
# ends the wait while traced background jobs run on) and the timeout's kill of the group spares the
# tracer, which records it. -I2: TERM makes it detach cleanly. `?`: calls some architectures lack.
# signal=!SIGCHLD: "killed by" lines need the signal in the set; the SIGCHLD deliveries are noise.
# close, dup and fcntl: the host follows descriptors to resolve paths relative to them.
# pipe, read, seek and the other calls that take from an input: the host tells which file a
# program's standard input gave it whole (`bash < x.sh`, `cat x.sh | bash`). Reads and seeks are
# printed raw (descriptor, address, count): their data would swamp the trace.
# The soft file size limit, raised again just before the command, caps the trace: past it the
# tracer dies and the command goes on untraced.
tracer=()
if [ "$trace" = 1 ]; then
  : >"$d/s"
  calls=execve,execveat,chdir,fchdir,?open,openat,openat2,?creat,close,close_range,dup,?dup2,dup3,fcntl
  calls+=,?rename,renameat,renameat2,?unlink,unlinkat,?rmdir,clone,clone3,?fork,?vfork
  calls+=,?pipe,pipe2,read,readv,?preadv2,lseek,sendfile,splice,copy_file_range
  tracer=("$bin/strace" -DD -I2 -f -q -s 4096 -o "$d/s" -e 'signal=!SIGCHLD' -e "trace=$calls"
    -e 'raw=read,readv,preadv2,lseek')
fi

# Past the user switch the command cannot open files in $d: fd 4 carries its stderr in, and
# timeout's own stderr (the "sending signal" line) stays apart in $d/t. The group's stderr is
# /dev/null so that this shell's "Killed" notice stays out of the output. The shell that moves
# the descriptors and enters CWD is dash: a third of bash's system calls at start-up, each one a
# stop for the tracer. It is the bundle's: the command's own shell, if any, is its business.
{
  (
    [ "$trace" = 1 ] && ulimit -S -f $((trace_cap / 1024))
    exec "$bin/timeout" --verbose -s KILL "$limit" "${tracer[@]}" "${as[@]}" "$bin/sh" -c '
    ulimit -S -f unlimited 2>/dev/null
    exec 2>&4 4>&-
    cd -- "$1" 2>/dev/null || { printf "agent-bench: cannot change directory to %s\n" "$1" >&2; exit 126; }
    shift
    exec "$@"' agent-bench "$cwd" "$@"
  ) >"$d/o" 2>"$d/t" 4>"$d/e" {report}>&-
  rc=$?
} 2>/dev/null
[ "$track" = 1 ] && exec 3>&-
# The report takes it from here, $d included (a tracer still tracing jobs goes on: exec_report.py).
trap - EXIT
printf '%s %s\n' "$rc" "$d" >&"$report"
exec {report}>&-
wait "$report_pid"
