/**
 * The host side of the exec relay's protocol (src/sandbox/docker/relay.ts) against a stand-in
 * relay on a fake attach stream: replies in any order and any chunking, failures, deadlines, a
 * relay that goes away. The real relay is tested against a container in relay.test.ts.
 */
import { Duplex } from 'node:stream';
import type Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import type { RawExecRequest } from '../../src/sandbox/docker/raw-exec.js';
import { ExecRelay } from '../../src/sandbox/docker/relay.js';

/** Docker's multiplexed framing: stream 1 is stdout, 2 stderr. */
function frame(stream: 1 | 2, payload: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head[0] = stream;
  head.writeUInt32BE(payload.length, 4);
  return Buffer.concat([head, payload]);
}

interface Sent {
  id: number;
  argv: string[];
  env: Record<string, string>;
  stdin: number | null;
}

/** A fake attach stream: what the host writes is parsed into requests; `say` sends it stdout. */
function fakeRelay() {
  const sent: Sent[] = [];
  let inbox = Buffer.alloc(0);
  const stream = new Duplex({
    read() {},
    write(chunk: Buffer, _enc, done) {
      inbox = Buffer.concat([inbox, chunk]);
      for (;;) {
        const nl = inbox.indexOf(0x0a);
        if (nl < 0) break;
        const req = JSON.parse(inbox.subarray(0, nl).toString('utf8')) as Sent;
        if (inbox.length < nl + 1 + (req.stdin ?? 0)) break;
        inbox = inbox.subarray(nl + 1 + (req.stdin ?? 0));
        sent.push(req);
      }
      done();
    },
  });
  const container = {
    exec: async () => ({ start: async () => stream }),
  } as unknown as Docker.Container;
  /** Sends bytes as stdout, cut into frames of `size` bytes, each pushed on its own. */
  const say = (bytes: Buffer | string, size = 1 << 20): void => {
    const b = Buffer.from(bytes);
    for (let i = 0; i < b.length; i += size) stream.push(frame(1, b.subarray(i, i + size)));
  };
  const reply = (id: number, out: string, err: string, extra: Record<string, unknown> = {}): void =>
    say(
      `${JSON.stringify({ id, exit: 0, out: Buffer.byteLength(out), err: Buffer.byteLength(err), out_dropped: 0, err_dropped: 0, error: null, ...extra })}\n${out}${err}`,
      7,
    );
  return { container, stream, sent, say, reply };
}

const request = (over: Partial<RawExecRequest> = {}): RawExecRequest => ({
  argv: ['/bin/true'],
  user: 'root',
  deadlineMs: 5_000,
  maxStdoutBytes: 1 << 20,
  maxStderrBytes: 1 << 20,
  ...over,
});

async function started() {
  const fake = fakeRelay();
  const pending = ExecRelay.start(fake.container);
  fake.say('agent-bench-relay ready 42\n', 3);
  const relay = await pending;
  if (relay === null) throw new Error('the relay did not start');
  return { ...fake, relay };
}

const tick = () => new Promise((r) => setTimeout(r, 10));

describe('exec relay protocol (host side)', () => {
  it('matches replies to requests whatever their order and chunking', async () => {
    const { relay, sent, reply } = await started();
    const a = relay.run(request({ argv: ['/bin/echo', 'a'] }));
    const b = relay.run(request({ argv: ['/bin/echo', 'b'], stdin: Buffer.from('in\n') }));
    await tick();
    expect(sent.map((s) => s.argv)).toEqual([
      ['/bin/echo', 'a'],
      ['/bin/echo', 'b'],
    ]);
    expect(sent[1]?.stdin).toBe(3);
    // The environment an engine exec would set, the request's on top.
    expect(sent[0]?.env).toMatchObject({ HOME: '/root', USER: 'root', LANG: 'C.UTF-8' });
    reply(sent[1]?.id ?? -1, 'b out\n', 'b err\n', { exit: 3 });
    reply(sent[0]?.id ?? -1, 'a out é\n', '', { out_dropped: 5 });
    const [ra, rb] = await Promise.all([a, b]);
    expect(ra.stdout.toString()).toBe('a out é\n');
    expect(ra.stdoutDropped).toBe(5);
    expect(ra.exitCode).toBe(0);
    expect(rb.stdout.toString()).toBe('b out\n');
    expect(rb.stderr.toString()).toBe('b err\n');
    expect(rb.exitCode).toBe(3);
    expect(rb.deadlineHit).toBe(false);
  });

  it('a reply of megabytes in small frames arrives whole, the next one after it too', async () => {
    const { relay, sent, say } = await started();
    const big = relay.run(request({ maxStdoutBytes: 16 << 20 }));
    const small = relay.run(request());
    await tick();
    const body = Buffer.alloc(8 << 20, 0x61);
    body.write('end', body.length - 3);
    const head = (id: number, out: number) =>
      `${JSON.stringify({ id, exit: 0, out, err: 0, out_dropped: 0, err_dropped: 0, error: null })}\n`;
    say(
      Buffer.concat([
        Buffer.from(head(sent[0]?.id ?? -1, body.length)),
        body,
        Buffer.from(`${head(sent[1]?.id ?? -1, 2)}ok`),
      ]),
      32 * 1024,
    );
    const [b, s] = await Promise.all([big, small]);
    expect(b.stdout.length).toBe(body.length);
    expect(b.stdout.subarray(-3).toString()).toBe('end');
    expect(s.stdout.toString()).toBe('ok');
  });

  it('sends text as the engine would receive it: a lone surrogate becomes U+FFFD', async () => {
    const { relay, sent } = await started();
    void relay.run(request({ argv: ['/bin/echo', 'x\ud800y'] }));
    await tick();
    expect(sent[0]?.argv[1]).toBe('x\ufffdy');
    relay.close();
  });

  it('a request nothing could run comes back without output, saying why', async () => {
    const { relay, sent, reply } = await started();
    const r = relay.run(request());
    await tick();
    reply(sent[0]?.id ?? -1, '', '', {
      exit: null,
      error: 'cannot start /bin/bash: Resource temporarily unavailable',
    });
    const got = await r;
    expect(got.exitCode).toBeNull();
    expect(got.stdout.length).toBe(0);
    expect(got.stderr.toString()).toMatch(/relay: cannot start \/bin\/bash: Resource temporarily/);
  });

  it('a missed deadline is the caller’s; the late reply is dropped and the relay goes on', async () => {
    const { relay, sent, reply } = await started();
    const slow = await relay.run(request({ deadlineMs: 30 }));
    expect(slow.deadlineHit).toBe(true);
    const next = relay.run(request({ argv: ['/bin/echo', 'next'] }));
    await tick();
    reply(sent[0]?.id ?? -1, 'late\n', '');
    reply(sent[1]?.id ?? -1, 'next\n', '');
    expect((await next).stdout.toString()).toBe('next\n');
    expect(relay.alive).toBe(true);
  });

  it('a relay that goes away answers what is in flight at once, and takes no more', async () => {
    const { relay, stream } = await started();
    const inFlight = relay.run(request({ deadlineMs: 60_000 }));
    await tick();
    stream.push(null);
    const got = await inFlight;
    expect(got.exitCode).toBeNull();
    expect(got.deadlineHit).toBe(false);
    expect(got.stderr.toString()).toMatch(/relay: it ended/);
    expect(relay.alive).toBe(false);
    const after = await relay.run(request());
    expect(after.exitCode).toBeNull();
    expect(after.relayProblem).toMatch(/ended/);
  });

  it('a reply out of step ends the relay rather than mismatching outputs', async () => {
    const { relay, say } = await started();
    const r = relay.run(request({ deadlineMs: 60_000 }));
    await tick();
    say('not a reply\n');
    expect((await r).exitCode).toBeNull();
    expect(relay.alive).toBe(false);
  });

  it('a reply announcing more bytes than its request allows ends the relay before anything is buffered', async () => {
    const { relay, say } = await started();
    const r = relay.run(request({ deadlineMs: 60_000, maxStdoutBytes: 100, maxStderrBytes: 100 }));
    await tick();
    // Root in the container wrote a header claiming a terabyte.
    say(
      `${JSON.stringify({ id: 0, exit: 0, out: 2 ** 40, err: 0, out_dropped: 0, err_dropped: 0, error: null })}\n`,
    );
    say(Buffer.alloc(64 * 1024));
    expect((await r).exitCode).toBeNull();
    expect(relay.alive).toBe(false);
    // A reply to a request never sent is out of step too.
    const next = await started();
    const ok = next.relay.run(request({ deadlineMs: 60_000 }));
    await tick();
    next.reply((next.sent[0]?.id ?? 0) + 1, 'x', '');
    expect((await ok).exitCode).toBeNull();
    expect(next.relay.alive).toBe(false);
  });

  it('a reply within what was asked is read even after its deadline passed, and the next one still matches', async () => {
    const { relay, reply, sent } = await started();
    const late = await relay.run(request({ deadlineMs: 5 }));
    expect(late.deadlineHit).toBe(true);
    const next = relay.run(request({ deadlineMs: 60_000 }));
    await tick();
    reply(sent[0]?.id ?? -1, 'late', '');
    reply(sent[1]?.id ?? -1, 'on time', '');
    expect((await next).stdout.toString()).toBe('on time');
    expect(relay.alive).toBe(true);
  });

  it('none when the relay cannot start (its stream ends before it says it is ready)', async () => {
    const fake = fakeRelay();
    const pending = ExecRelay.start(fake.container);
    fake.stream.push(frame(2, Buffer.from("python3: can't open file\n")));
    fake.stream.push(null);
    expect(await pending).toBeNull();
    const failing = {
      exec: async () => {
        throw new Error('engine says no');
      },
    } as unknown as Docker.Container;
    expect(await ExecRelay.start(failing)).toBeNull();
  });
});
