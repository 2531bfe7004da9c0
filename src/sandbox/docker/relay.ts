/**
 * Host half of the exec relay (sandbox/relay/exec_relay.py explains it): one attached `docker exec`
 * per container, through which the sandbox's wrapper execs run as requests instead of an engine
 * exec each. `run` takes and returns what rawExec does, so a caller cannot tell the two apart but
 * for the time. A relay that cannot start, or has ended, is no failure: the caller runs the exec
 * directly (relayed requests in flight when it ends come back without output, as a dying exec's).
 */
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type Docker from 'dockerode';
import { z } from 'zod';
import { RELAY_DIR, tool } from '../tools.js';
import { ENGINE_CALL_MS, withDeadline } from './deadline.js';
import { FrameDemuxer } from './demux.js';
import { execEnv, type RawExecRequest, type RawExecResult } from './raw-exec.js';
import { uidOf } from './users.js';

/** Loads the relay from where the Dockerfile installs sandbox/relay/ (compiled, read-only, root's). */
const BOOT = `import sys; sys.dont_write_bytecode = True
sys.path.insert(0, "${RELAY_DIR}")
import exec_relay; exec_relay.main()`;
/** How long a relay may take to say it is ready (Python's start-up on a loaded machine). */
const START_TIMEOUT_MS = 15_000;
const READY = /^agent-bench-relay ready (\d+)\n/;

const Reply = z.object({
  id: z.number().int(),
  exit: z.number().int().nullable(),
  out: z.number().int().nonnegative(),
  err: z.number().int().nonnegative(),
  out_dropped: z.number().int().nonnegative(),
  err_dropped: z.number().int().nonnegative(),
  error: z.string().nullable(),
  lost: z.string().nullable().optional(),
});
type Reply = z.infer<typeof Reply>;

interface Pending {
  started: number;
  resolve(r: RawExecResult): void;
  timer: NodeJS.Timeout;
}

export class ExecRelay {
  private readonly stream: Duplex;
  private readonly pending = new Map<number, Pending>();
  /**
   * What each request in flight allows back, kept past its deadline until its reply comes: a reply
   * may announce no more bytes than its request asked for, or the host would buffer whatever a
   * process in the container claims (root in there can write the relay's stdout).
   */
  private readonly asked = new Map<number, { out: number; err: number }>();
  private nextId = 1;
  private ended = false;
  /**
   * Stdout not yet consumed (a reply's line, then its body), as it came: joined once a whole reply
   * is there, so that a listing of megabytes is not copied again with every chunk.
   */
  private unread: Buffer[] = [];
  private unreadBytes = 0;
  private reply: Reply | null = null;
  /** The end of what the relay wrote to stderr (nothing, unless it failed). */
  private said: Buffer = Buffer.alloc(0);

  private constructor(stream: Duplex) {
    this.stream = stream;
  }

  /** A ready relay in the container, or null when it cannot have one (an image without it, say). */
  static async start(container: Docker.Container): Promise<ExecRelay | null> {
    let stream: Duplex;
    try {
      const exec = await withDeadline(
        (abortSignal) =>
          container.exec({
            Cmd: [tool('python3'), '-I', '-S', '-c', BOOT],
            User: '0:0',
            WorkingDir: '/',
            AttachStdin: true,
            AttachStdout: true,
            AttachStderr: true,
            Tty: false,
            abortSignal,
          }),
        ENGINE_CALL_MS,
        'creating the exec relay',
      );
      stream = (await withDeadline(
        (abortSignal) => exec.start({ hijack: true, stdin: true, abortSignal }),
        ENGINE_CALL_MS,
        'starting the exec relay',
      )) as Duplex;
    } catch {
      return null;
    }
    // An idle relay never keeps the process alive (a request in flight does, by its deadline timer).
    (stream as Partial<Socket>).unref?.();
    const relay = new ExecRelay(stream);
    return (await relay.ready()) ? relay : null;
  }

  /** Whether requests can still be sent. */
  get alive(): boolean {
    return !this.ended;
  }

  /**
   * One exec of `req.argv` as `req.user` (its own group, no others) from `/`, answered like
   * rawExec. Only for a live relay; the deadline is the host's backstop as with rawExec.
   */
  run(req: RawExecRequest): Promise<RawExecResult> {
    if (this.ended) return Promise.resolve(this.endedResult(performance.now()));
    const id = this.nextId++;
    const line = JSON.stringify({
      id,
      uid: uidOf(req.fileTool?.user ?? req.user),
      call: req.fileTool?.args.map(wellFormed) ?? null,
      // Well-formed text, as the engine's JSON decoding would make it.
      argv: req.argv.map(wellFormed),
      env: Object.fromEntries(Object.entries(execEnv(req)).map(([k, v]) => [k, wellFormed(v)])),
      stdin: req.stdin === undefined ? null : req.stdin.length,
      max_out: req.maxStdoutBytes,
      max_err: req.maxStderrBytes,
    });
    return new Promise((resolve) => {
      const started = performance.now();
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve(noOutput(started, true));
      }, req.deadlineMs);
      this.pending.set(id, { started, resolve, timer });
      this.asked.set(id, { out: req.maxStdoutBytes, err: req.maxStderrBytes });
      this.stream.write(`${line}\n`);
      if (req.stdin !== undefined) this.stream.write(req.stdin);
    });
  }

  /** Ends the relay (its stdin closes, it exits); requests in flight come back without output. */
  close(): void {
    this.finish();
    this.stream.destroy();
  }

  private ready(): Promise<boolean> {
    return new Promise((resolve) => {
      let settled = false;
      const settle = (ok: boolean): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (!ok) this.close();
        resolve(ok);
      };
      const timer = setTimeout(() => settle(false), START_TIMEOUT_MS);
      const demux = new FrameDemuxer((which, payload) => {
        if (which === 'stderr') {
          // Python's last words, if it dies: they say why in-flight commands got no answer.
          this.said = Buffer.concat([this.said, payload]).subarray(-2048);
          return;
        }
        if (settled) {
          this.take(payload);
          return;
        }
        this.keep(payload);
        const head = this.joined();
        const m = READY.exec(head.toString('latin1'));
        if (m === null) return;
        this.rest(head.subarray(m[0].length));
        settle(true);
        this.take(Buffer.alloc(0));
      });
      this.stream.on('data', (chunk: Buffer) => {
        try {
          demux.push(chunk);
        } catch {
          this.close();
        }
      });
      const gone = (): void => {
        this.finish();
        settle(false);
      };
      this.stream.on('end', gone);
      this.stream.on('close', gone);
      this.stream.on('error', gone);
    });
  }

  /** Consumes replies from the relay's stdout as they complete. */
  private take(chunk: Buffer): void {
    this.keep(chunk);
    for (;;) {
      if (this.reply === null) {
        // Only the line: what follows a body is small, so joining it is cheap.
        const head = this.joined();
        const nl = head.indexOf(0x0a);
        if (nl < 0) return;
        const parsed = Reply.safeParse(safeJson(head.subarray(0, nl).toString('utf8')));
        const asked = parsed.success ? this.asked.get(parsed.data.id) : undefined;
        // Out of step, or more than was asked for: nothing more it says can be trusted.
        if (
          !parsed.success ||
          asked === undefined ||
          parsed.data.out > asked.out ||
          parsed.data.err > asked.err
        ) {
          this.close();
          return;
        }
        this.asked.delete(parsed.data.id);
        this.reply = parsed.data;
        this.rest(head.subarray(nl + 1));
      }
      const r = this.reply;
      const size = r.out + r.err;
      if (this.unreadBytes < size) return;
      const all = this.joined();
      this.rest(Buffer.from(all.subarray(size)));
      this.reply = null;
      this.settle(r, all.subarray(0, size));
    }
  }

  private keep(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.unread.push(chunk);
    this.unreadBytes += chunk.length;
  }

  private joined(): Buffer {
    if (this.unread.length !== 1) this.unread = [Buffer.concat(this.unread, this.unreadBytes)];
    return this.unread[0] as Buffer;
  }

  private rest(rest: Buffer): void {
    this.unread = rest.length === 0 ? [] : [rest];
    this.unreadBytes = rest.length;
  }

  private settle(r: Reply, body: Buffer): void {
    const p = this.pending.get(r.id);
    if (p === undefined) return; // its deadline passed: the caller has moved on
    this.pending.delete(r.id);
    clearTimeout(p.timer);
    const why = r.error ?? r.lost ?? null;
    if (why !== null) {
      p.resolve({
        ...noOutput(p.started, false),
        stderr: Buffer.from(`agent-bench relay: ${why}\n`),
        relayProblem: why,
      });
      return;
    }
    p.resolve({
      exitCode: r.exit,
      stdout: Buffer.from(body.subarray(0, r.out)),
      stderr: Buffer.from(body.subarray(r.out)),
      stdoutDropped: r.out_dropped,
      stderrDropped: r.err_dropped,
      deadlineHit: false,
      elapsedMs: Math.round(performance.now() - p.started),
    });
  }

  /** A request the relay ended under (or was sent after it ended): no output, and why. */
  private endedResult(started: number): RawExecResult {
    const last = this.said.toString('utf8').trim().split('\n').at(-1) ?? '';
    const why = `it ended${last === '' ? '' : ` (${last})`}`;
    return {
      ...noOutput(started, false),
      stderr: Buffer.from(`agent-bench relay: ${why}\n`),
      relayProblem: why,
    };
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.resolve(this.endedResult(p.started));
    }
    this.pending.clear();
    this.asked.clear();
  }
}

/** What an exec that ended without a word gives: no exit code, no output. */
function noOutput(started: number, deadlineHit: boolean): RawExecResult {
  return {
    exitCode: null,
    stdout: Buffer.alloc(0),
    stderr: Buffer.alloc(0),
    stdoutDropped: 0,
    stderrDropped: 0,
    deadlineHit,
    elapsedMs: Math.round(performance.now() - started),
  };
}

/** Lone surrogates become U+FFFD, as in the UTF-8 the engine would have been sent. */
function wellFormed(s: string): string {
  return Buffer.from(s, 'utf8').toString('utf8');
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
