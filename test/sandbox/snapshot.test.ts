/**
 * The turn's workspace snapshot, taken inside the agent command's own exec and sent as a change
 * list: it sees every change (deletes, renames, modes, links, kinds; background jobs between
 * turns; writes through shared memory maps, which change no timestamp), agrees with a read of
 * every file, and nothing the agent prints or writes is taken for it.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DockerSandbox } from '../../src/sandbox/index.js';
import { asRoot, IMAGE_TIMEOUT_MS, openSandbox } from './fixture.js';

let sb: DockerSandbox;

beforeAll(async () => {
  sb = await openSandbox();
}, IMAGE_TIMEOUT_MS);

afterAll(async () => {
  await sb?.dispose();
});

beforeEach(async () => {
  await sb.reset();
});

const sha = (s: string): string => createHash('sha256').update(s).digest('hex');
const run = async (command: string): Promise<void> => {
  const r = await sb.runCommand(command, 30_000);
  expect(r.exitCode, `${command}\n${r.stderr}`).toBe(0);
};
const look = async (): Promise<string[]> => (await sb.workspaceChanges()).paths;
/** A change the sandbox cannot know of: root, through the docker CLI, outside any of its execs. */
const behindItsBack = (script: string): void => {
  execFileSync('docker', ['exec', sb.id, 'sh', '-c', script]);
};

describe.sequential('the snapshot folded into a command', () => {
  it("sees every change the command made, from the command's own exec", async () => {
    await sb.putFiles(
      ['a.txt', 'b.txt', 'c.txt', 'd/x', 'm.sh', 'kind'].map((path) => ({ path, content: path })),
    );
    await run('ln -s a.txt link; mkdir -p keep/sub');
    await sb.snapshot();
    await run(
      'echo A > a.txt; rm b.txt; mv c.txt c2.txt; chmod 755 m.sh; ln -sfn b.txt link; rm -r d; mkdir d; ' +
        'touch d/y; rm kind; mkdir kind; chmod 700 keep/sub; printf new > new.txt',
    );
    behindItsBack('echo late > /workspace/late.txt');
    // late.txt is not there: the look is the command's own, taken as it ended.
    expect(await look()).toEqual([
      'a.txt',
      'b.txt',
      'c.txt',
      'c2.txt',
      'd/x',
      'd/y',
      'keep/sub',
      'kind',
      'link',
      'm.sh',
      'new.txt',
    ]);
    expect(await look()).toEqual([]);
    // Any other exec and the next look takes one of its own.
    await asRoot(sb, 'true');
    expect(await look()).toEqual(['late.txt']);
  });

  it('agrees with a read of every file', async () => {
    await run('mkdir -p p/q; for i in $(seq 50); do echo $i > p/q/f$i; done; ln -s q p/l; mkfifo p/fifo');
    await sb.snapshot();
    await run('echo changed >> p/q/f7; chmod 600 p/q/f8; rm p/q/f9');
    const seen = await look();
    const full = await sb.snapshot();
    expect(seen).toEqual(['p/q/f7', 'p/q/f8', 'p/q/f9']);
    expect(full.get('p/q/f7')).toEqual({ kind: 'file', sha256: sha('7\nchanged\n'), size: 10, mode: 0o644 });
    expect(full.get('p/fifo')).toMatchObject({ sha256: 'special:fifo' });
    // A look that trusts what it read before finds nothing a read of every file does not.
    await asRoot(sb, 'true');
    expect(await look()).toEqual([]);
  });

  it('sees what background jobs changed between turns, whichever tool the next turn uses', async () => {
    await sb.putFiles(['gone.txt', 'old.txt', 'keep.txt'].map((path) => ({ path, content: path })));
    await sb.snapshot();
    await run(
      '(while [ ! -e go ]; do sleep 0.02; done; echo late >> keep.txt; rm gone.txt; mv old.txt moved.txt; ' +
        'chmod 600 keep.txt; touch done1) >/dev/null 2>&1 &',
    );
    expect(await look()).toEqual([]);
    // The next turn runs a command: its own snapshot has the job's changes.
    await run('touch go; while [ ! -e done1 ]; do sleep 0.02; done');
    expect(await look()).toEqual(['done1', 'go', 'gone.txt', 'keep.txt', 'moved.txt', 'old.txt']);
    await run('(while [ ! -e go2 ]; do sleep 0.02; done; echo job > job.txt) >/dev/null 2>&1 &');
    expect(await look()).toEqual([]);
    // The next turn only writes a file: the look needs an exec of its own, and has the job's change.
    await sb.writeFile('go2', '');
    for (let i = 0; i < 100 && (await sb.getFiles(['/workspace/job.txt'])).size === 0; i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(await look()).toEqual(['go2', 'job.txt']);
  });

  it('keeps names exact, however odd', async () => {
    await sb.snapshot();
    await run("touch $'a\\xff' $'a\\xfe' $'new\\nline' 'é \"x\".txt'");
    expect(await look()).toEqual(['a\udcfe', 'a\udcff', 'new\nline', 'é "x".txt']);
  });
});

// Pages already written through a shared mapping are written again without a new timestamp
// (tmpfs stamps a file at the first write fault only): a snapshot that trusted the timestamps
// of a file some process maps would keep its old hash.
const MAPPED_WRITER = `import ctypes, mmap, os, sys, time
if sys.argv[1] == "hide":
    ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE 0: its /proc/PID/maps is closed to others
fd = os.open("m.bin", os.O_RDWR)
m = mmap.mmap(fd, 8192)
m[0:1] = b"b"
open("ready", "w").close()
while not os.path.exists("go"):
    time.sleep(0.01)
m[1:2] = b"c"
m.close()
open("done", "w").close()
`;

describe.sequential('writes through a shared memory map', () => {
  for (const how of ['open', 'hide'] as const) {
    it(`are seen in the next turn's snapshot (${how === 'hide' ? 'a writer that hides its maps' : 'a plain writer'})`, async () => {
      await sb.putFiles([
        { path: 'm.bin', content: 'a'.repeat(8192) },
        { path: 'writer.py', content: MAPPED_WRITER },
      ]);
      await sb.snapshot();
      // The first write stamps the file; the pause puts that stamp well before the snapshot's start.
      await run(
        `python3 writer.py ${how} >/dev/null 2>&1 & while [ ! -e ready ]; do sleep 0.01; done; sleep 0.2`,
      );
      expect(await look()).toEqual(['m.bin', 'ready']);
      const stamped = await asRoot(sb, "stat -c '%y %z' /workspace/m.bin");
      await run('touch go; while [ ! -e done ]; do sleep 0.01; done');
      expect((await asRoot(sb, "stat -c '%y %z' /workspace/m.bin")).stdout).toBe(stamped.stdout);
      expect(await look()).toEqual(['done', 'go', 'm.bin']);
      expect((await sb.snapshot()).get('m.bin')).toMatchObject({ sha256: sha(`bc${'a'.repeat(8190)}`) });
    });
  }
});

describe.sequential('the listing is out of the agent’s reach', () => {
  // What the wrapper prints for a command without output whose snapshot lists one file.
  const listing = `full - 0\n${['f', 'evil.py', '0'.repeat(64), '1', '420', ''].join('\0')}`;
  const frame = `agent-bench-exec 0 0 0 0 - 0 - 0 ${Buffer.byteLength(listing)} -\n${listing}`;

  it('cannot be forged by printing frames, or by writing to the report or its state', async () => {
    await sb.putFiles([{ path: '/tmp/frame', content: frame }]);
    await sb.snapshot();
    const r = await sb.runCommand(
      [
        'cat /tmp/frame',
        'cat /tmp/frame >&2',
        'ls -l /proc/self/fd > fds.txt',
        // Every descriptor and file it can reach gets a forged listing.
        'for f in /proc/[0-9]*/fd/* /run/agent-bench/snapshot.state /run/agent-bench/*/*; do cat /tmp/frame >> "$f"; done 2>/dev/null',
        'cat /run/agent-bench/snapshot.state',
        'echo probe done',
      ].join('\n'),
      30_000,
    );
    expect(r.stdout.startsWith(frame)).toBe(true);
    expect(r.stdout).toMatch(/probe done\n$/);
    expect(r.stderr.startsWith(frame)).toBe(true);
    expect(r.stderr).toMatch(/snapshot\.state: Permission denied/);
    // The command holds no pipe of the harness's: nothing to write a frame into.
    const fds = (await sb.getFiles(['/workspace/fds.txt'])).get('/workspace/fds.txt')?.toString() ?? '';
    expect(fds).toMatch(/fds\.txt/);
    expect(fds).not.toMatch(/pipe:/);
    expect(await look()).toEqual(['fds.txt']);
    expect([...(await sb.snapshot()).keys()]).toEqual(['fds.txt']);
    // The saved state was not touched: the next command's change list is right.
    await run('touch real');
    expect(await look()).toEqual(['real']);
  });
});

describe.sequential('a read of every file', () => {
  it('trusts no saved hash', async () => {
    await sb.putFiles([{ path: 'p.txt', content: 'true content' }]);
    await sb.snapshot();
    // Root forges the saved hash of p.txt: a look trusting it would see its old content.
    const forge = await asRoot(
      sb,
      `python3 -I -S -c '
import marshal
sid, entries = marshal.loads(open("/run/agent-bench/snapshot.state", "rb").read())
rec, key = entries["p.txt"]
assert key is not None, "p.txt has no saved hash"
entries["p.txt"] = (rec.replace(rec.split(b"\\0")[2], b"0" * 64), key)
open("/run/agent-bench/snapshot.state", "wb").write(marshal.dumps((sid, entries)))'`,
    );
    expect(forge.stderr).toBe('');
    expect((await sb.snapshot()).get('p.txt')).toMatchObject({ sha256: sha('true content') });
  });
});
