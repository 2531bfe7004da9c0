# agent-bench exec relay: one long-lived root process per sandbox container that starts the exec
# wrapper (sandbox/exec-wrapper.sh) for the host, so that a command costs a fork here instead of a
# `docker exec` (the engine's exec, runc's start, a new attach stream: most of a turn's time).
# The host starts it with one `docker exec` whose stdin and stdout stay attached (host side:
# src/sandbox/docker/relay.ts); a reset kills it with every other process and the host starts a new
# one. It runs exactly what the host would have exec'd, as its user, from `/`, with the environment an
# exec gets (the container's, then the request's), so the wrapper cannot tell the difference; the
# wrapper stays the one that switches to the agent, times the command out and caps its output.
# The file tools come through it too, but are served here, in the request's thread, with the
# agent's filesystem identity (sandbox/relay/file_tool.py): no process of the agent's uid is ever
# started for them, so the agent cannot stop one. The agent cannot reach the relay: it is root's, its stdin and stdout are the exec's pipes (no child
# inherits them), and the agent's uid may not signal it or open its /proc entries.
#
# Requests on stdin, one JSON line each, then STDIN bytes when "stdin" is a number:
#   {"id": N, "uid": UID, "argv": [...], "env": {...}, "stdin": LEN|null, "max_out": N, "max_err": N,
#    "call": null|[...]}
# (UID's group of the same number, no supplementary groups, as `docker exec -u UID:UID` gives).
# With "call", nothing is started: file_tool.call(UID, CALL, STDIN) answers in a thread of the
# relay (argv is what an engine exec would run for the same answer).
# Replies on stdout, one JSON line each, then OUT bytes of stdout and ERR bytes of stderr:
#   {"id": N, "exit": CODE|null, "out": OUT, "err": ERR, "out_dropped": N, "err_dropped": N,
#    "error": null|"why nothing ran"}
# At start: `agent-bench-relay ready PID\n`. End of stdin (the host went away): it exits; commands
# still running finish on their own (the wrapper's timeout bounds them).
import json
import os
import subprocess
import sys
import threading

import file_tool

CHUNK = 1 << 16


def main():
    base_env = initial_env()
    inp = sys.stdin.buffer
    out = sys.stdout.buffer
    lock = threading.Lock()

    def reply(msg, body=b""):
        data = json.dumps(msg).encode() + b"\n" + body
        with lock:
            out.write(data)
            out.flush()

    reply_line = ("agent-bench-relay ready %d\n" % os.getpid()).encode()
    out.write(reply_line)
    out.flush()
    while True:
        line = inp.readline()
        if not line:
            os._exit(0)
        try:
            req = json.loads(line)
            rid = req["id"]
        except (ValueError, KeyError, TypeError):
            os._exit(2)  # out of step with the host: it sees the stream end and stops using us
        data = None
        if req.get("stdin") is not None:
            data = read_exact(inp, int(req["stdin"]))
            if data is None:
                os._exit(0)
        try:
            threading.Thread(target=serve, args=(req, data, base_env, reply), daemon=True).start()
        except RuntimeError as err:  # no thread (every process slot taken): nothing ran
            reply(failure(rid, "cannot start a thread: %s" % err))


def serve(req, data, base_env, reply):
    rid = req["id"]
    if req.get("call") is not None:
        serve_call(req, data, reply)
        return
    env = dict(base_env)
    env.update(req.get("env") or {})
    uid = int(req.get("uid", 0))
    as_user = {} if uid == 0 else {"user": uid, "group": uid, "extra_groups": []}
    try:
        proc = subprocess.Popen(
            req["argv"],
            stdin=subprocess.PIPE if data is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            cwd="/",
            close_fds=True,
            # Out of the relay's process group and session, as a `docker exec` would be.
            start_new_session=True,
            **as_user,
        )
    except OSError as err:
        reply(failure(rid, "cannot start %s: %s" % (req["argv"][0], err.strerror or err)))
        return
    except Exception as err:  # a request no exec could carry (a NUL byte, say)
        reply(failure(rid, "cannot start %s: %r" % (req["argv"][0], err)))
        return
    try:
        got = {}
        readers = [
            threading.Thread(target=drain, args=(proc.stdout, int(req["max_out"]), got, "out")),
            threading.Thread(target=drain, args=(proc.stderr, int(req["max_err"]), got, "err")),
        ]
        for t in readers:
            t.start()
        if data is not None:
            feed(proc.stdin, data)
        for t in readers:
            t.join()
        rc = proc.wait()
    except BaseException as err:  # a thread could not start: the command may have run
        proc.kill()
        proc.wait()
        reply(failure(rid, None, "the relay lost the command: %s" % err))
        return
    out, out_dropped = got["out"]
    err, err_dropped = got["err"]
    reply(
        {
            "id": rid,
            "exit": rc if rc >= 0 else 128 - rc,
            "out": len(out),
            "err": len(err),
            "out_dropped": out_dropped,
            "err_dropped": err_dropped,
            "error": None,
        },
        out + err,
    )


def serve_call(req, data, reply):
    """A file tool, in this thread (which ends with the request: its identity dies with it)."""
    try:
        rc, out, err = file_tool.call(int(req.get("uid", 0)), [str(a) for a in req["call"]], data)
    except Exception as err:  # a bug, not the user's doing: said, never left unanswered
        reply(failure(req["id"], "the file tool failed: %r" % err))
        return
    max_out, max_err = int(req["max_out"]), int(req["max_err"])
    reply(
        {
            "id": req["id"],
            "exit": rc,
            "out": min(len(out), max_out),
            "err": min(len(err), max_err),
            "out_dropped": max(0, len(out) - max_out),
            "err_dropped": max(0, len(err) - max_err),
            "error": None,
        },
        out[:max_out] + err[:max_err],
    )


def failure(rid, why, lost=None):
    """A reply with no output: `error` when nothing ran, `lost` when it may have."""
    return {
        "id": rid,
        "exit": None,
        "out": 0,
        "err": 0,
        "out_dropped": 0,
        "err_dropped": 0,
        "error": why,
        "lost": lost,
    }


def drain(pipe, cap, got, name):
    """Everything the pipe gives until its end: the first `cap` bytes kept, the rest counted."""
    kept = []
    size = 0
    dropped = 0
    fd = pipe.fileno()
    while True:
        chunk = os.read(fd, CHUNK)
        if not chunk:
            break
        room = cap - size
        if room > 0:
            kept.append(chunk[:room])
            size += min(room, len(chunk))
        dropped += max(0, len(chunk) - max(room, 0))
    pipe.close()
    got[name] = (b"".join(kept), dropped)


def feed(pipe, data):
    try:
        view = memoryview(data)
        fd = pipe.fileno()
        while view:
            view = view[os.write(fd, view) :]
    except BrokenPipeError:
        pass  # the command did not read it all: as with an exec's stdin
    finally:
        try:
            pipe.close()
        except BrokenPipeError:
            pass


def read_exact(stream, n):
    chunks = []
    while n > 0:
        chunk = stream.read(n)
        if not chunk:
            return None
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def initial_env():
    """The environment this process was started with, as an exec gets it (before Python's own changes)."""
    with open("/proc/self/environ", "rb") as f:
        items = f.read().split(b"\0")
    env = {}
    for item in items:
        key, sep, value = item.partition(b"=")
        if sep:
            env[os.fsdecode(key)] = os.fsdecode(value)
    return env


if __name__ == "__main__":
    main()
