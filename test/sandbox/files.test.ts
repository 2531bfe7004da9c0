/** Files in and out: the agent's read/write tools, the harness's put/get, and workspace snapshots. */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DockerSandbox } from '../../src/sandbox/index.js';
import { asRoot, IMAGE_TIMEOUT_MS, openSandbox } from './fixture.js';

let sb: DockerSandbox;
const ALL_BYTES = Buffer.from(Array.from({ length: 256 }, (_, i) => i));

beforeAll(async () => {
  sb = await openSandbox();
}, IMAGE_TIMEOUT_MS);

afterAll(async () => {
  await sb?.dispose();
});

beforeEach(async () => {
  await sb.reset();
});

describe.sequential('agent file tools', () => {
  it('round-trips every byte value, creating parent folders, owned by the agent', async () => {
    const w = await sb.writeFile('deep/er/bytes.bin', ALL_BYTES);
    expect(w).toEqual({ ok: true, path: '/workspace/deep/er/bytes.bin', bytes: 256 });
    const got = await sb.getFiles(['/workspace/deep/er/bytes.bin']);
    expect(got.get('/workspace/deep/er/bytes.bin')?.equals(ALL_BYTES)).toBe(true);
    const owner = await asRoot(sb, 'stat -c "%u:%g %a" /workspace/deep /workspace/deep/er/bytes.bin');
    expect(owner.stdout).toBe('1000:1000 755\n1000:1000 644\n');
  });

  it('writes text verbatim (no shell, no quoting) and reads it back', async () => {
    const text = 'quotes \' " $HOME `id` $(reboot) \\ \n tabs\t and ünïcödé ✓ 🎉\n';
    expect((await sb.writeFile('text.txt', text)).ok).toBe(true);
    const r = await sb.readFile('text.txt');
    expect(r).toEqual({
      ok: true,
      path: '/workspace/text.txt',
      content: text,
      totalBytes: Buffer.byteLength(text),
      offset: 0,
      truncated: false,
    });
  });

  it('keeps the mode of a file it overwrites', async () => {
    await sb.runCommand('printf "#!/bin/sh\\necho old\\n" > run.sh && chmod 755 run.sh', 10_000);
    expect((await sb.writeFile('run.sh', '#!/bin/sh\necho new\n')).ok).toBe(true);
    expect((await sb.runCommand('./run.sh', 10_000)).stdout).toBe('new\n');
  });

  it('writes with the agent user permissions, with a clear error', async () => {
    const etc = await sb.writeFile('/etc/profile.d/evil.sh', 'echo pwned');
    expect(etc).toMatchObject({ ok: false, path: '/etc/profile.d/evil.sh' });
    expect(!etc.ok && etc.error).toMatch(/^cannot write \/etc\/profile.d\/evil.sh: .*Read-only file system/);
    await sb.putFiles([{ path: 'locked/ro.txt', content: 'x' }], { owner: 'root' });
    const denied = await sb.writeFile('locked/new.txt', 'x');
    expect(!denied.ok && denied.error).toMatch(/Permission denied/);
  });

  it('replaces a symlink or a FIFO at the path (never following or opening it), and leaves root-owned files alone', async () => {
    await sb.runCommand('ln -s /tmp/target.txt link.txt && mkfifo fifo && echo x > /tmp/keep', 10_000);
    expect(await sb.writeFile('link.txt', 'via link')).toMatchObject({ ok: true });
    expect(await sb.writeFile('fifo', 'was a fifo')).toMatchObject({ ok: true });
    const look = await asRoot(
      sb,
      'stat -c "%F %u:%g %a" /workspace/link.txt /workspace/fifo; cat /workspace/fifo; ls /tmp',
    );
    expect(look.stdout).toBe('regular file 1000:1000 644\nregular file 1000:1000 644\nwas a fifokeep\n');
    // A file the agent cannot write stays as it is, as from its shell (tar would have replaced it).
    await sb.putFiles([{ path: 'given.txt', content: 'root' }], { owner: 'root' });
    const denied = await sb.writeFile('given.txt', 'mine now');
    expect(!denied.ok && denied.error).toMatch(/^cannot write \/workspace\/given.txt: Permission denied$/);
    expect((await sb.readFile('given.txt')).ok && (await sb.readFile('given.txt'))).toMatchObject({
      content: 'root',
    });
    expect(await sb.readFile('/dev/zero')).toMatchObject({
      ok: false,
      error: 'cannot read /dev/zero: not a regular file',
    });
  });

  it('returns the beginning of a big file with what is needed to read the rest, without reading it all', async () => {
    // ~104 MB of numbered lines: every part of it is distinct.
    const made = await sb.runCommand('seq -w 1 12000000 > big.txt && stat -c %s big.txt', 60_000);
    const size = Number(made.stdout.trim());
    expect(size).toBeGreaterThan(100_000_000);
    const started = Date.now();
    const r = await sb.readFile('big.txt');
    expect(Date.now() - started).toBeLessThan(2_000);
    if (!r.ok) throw new Error(r.error);
    expect(r).toMatchObject({ totalBytes: size, offset: 0, truncated: true });
    expect(Buffer.byteLength(r.content)).toBe(64 * 1024);
    expect(r.content.startsWith('00000001\n00000002\n')).toBe(true);
    const next = await sb.readFile('big.txt', { offset: 64 * 1024, limit: 16 });
    const expected = await sb.exec(['bash', '-c', 'tail -c +65537 big.txt | head -c 16']);
    expect(next.ok && next.content).toBe(expected.stdout);
    const past = await sb.readFile('big.txt', { offset: size + 10 });
    expect(past).toMatchObject({ ok: true, content: '', truncated: false });
  }, 120_000);

  it('never splits a character at the limit', async () => {
    await sb.writeFile('euro.txt', '€€€€');
    const r = await sb.readFile('euro.txt', { limit: 4 });
    expect(r).toMatchObject({ ok: true, content: '€', truncated: true, totalBytes: 12 });
  });

  it('says clearly what is wrong with a path it cannot read', async () => {
    await sb.runCommand('mkdir d; echo s > secret; chmod 000 secret; mkfifo pipe', 10_000);
    const cases: [string, RegExp][] = [
      ['missing.txt', /^cannot read \/workspace\/missing.txt: no such file$/],
      ['d', /is a directory$/],
      ['secret', /permission denied$/],
      ['pipe', /not a regular file$/],
      ['/harness/anything', /no such file$/],
    ];
    for (const [path, error] of cases) {
      const r = await sb.readFile(path);
      expect(r.ok, path).toBe(false);
      expect(!r.ok && r.error, path).toMatch(error);
    }
    expect(await sb.readFile('x', { offset: -1 })).toMatchObject({ ok: false });
  });
});

describe.sequential('harness transfers', () => {
  it('puts agent-owned and root-owned files, with modes, and gets them back byte for byte', async () => {
    await sb.putFiles([
      { path: 'src/bytes.bin', content: ALL_BYTES },
      { path: '/workspace/tool.sh', content: '#!/bin/sh\necho tool\n', mode: 0o755 },
    ]);
    await sb.putFiles([{ path: '/harness/checks/hidden.py', content: 'assert True\n', mode: 0o600 }], {
      owner: 'root',
    });
    const st = await asRoot(
      sb,
      'stat -c "%U %a %n" /workspace/src/bytes.bin /workspace/tool.sh /harness/checks/hidden.py',
    );
    expect(st.stdout).toBe(
      'agent 644 /workspace/src/bytes.bin\nagent 755 /workspace/tool.sh\nroot 600 /harness/checks/hidden.py\n',
    );
    const got = await sb.getFiles([
      'src/bytes.bin',
      '/harness/checks/hidden.py',
      '/workspace/nope',
      '/workspace/src',
    ]);
    expect([...got.keys()].sort()).toEqual(['/harness/checks/hidden.py', 'src/bytes.bin']);
    expect(got.get('src/bytes.bin')?.equals(ALL_BYTES)).toBe(true);
    expect((await sb.runCommand('./tool.sh', 10_000)).stdout).toBe('tool\n');
  });

  it('does not read through a symlink the agent planted', async () => {
    await sb.putFiles([{ path: '/harness/secret.txt', content: 'answer=42' }], { owner: 'root' });
    await sb.runCommand('ln -s /harness/secret.txt out.txt && ln -s /harness dir', 10_000);
    const got = await sb.getFiles(['/workspace/out.txt', '/workspace/dir/secret.txt', '/harness/secret.txt']);
    expect([...got.keys()]).toEqual(['/harness/secret.txt']);
  });

  it('does not write through a symlink the agent planted', async () => {
    await sb.runCommand('mkdir -p /tmp/elsewhere && ln -s /tmp/elsewhere tests', 10_000);
    await sb.putFiles([{ path: 'tests/test_hidden.py', content: 'x' }], { owner: 'root' });
    const r = await asRoot(
      sb,
      'ls -A /tmp/elsewhere; stat -c "%F %U" /workspace/tests; cat /workspace/tests/test_hidden.py',
    );
    expect(r.stdout).toBe('directory root\nx');
  });
});

describe.sequential('snapshot', () => {
  const sha = (s: string): string => createHash('sha256').update(s).digest('hex');

  it('records files, dirs and symlinks (never followed), with odd names intact', async () => {
    await sb.putFiles([{ path: 'main.py', content: 'print(1)\n' }]);
    await sb.runCommand(
      "mkdir -p pkg/empty && ln -s /etc/passwd pw && ln -s /harness h && printf x > $'a b\\nc' && ln -s main.py alias.py",
      10_000,
    );
    const s = await sb.snapshot();
    expect(Object.fromEntries(s)).toEqual({
      'a b\nc': { kind: 'file', sha256: sha('x'), size: 1, mode: 0o644 },
      'alias.py': { kind: 'symlink', target: 'main.py' },
      h: { kind: 'symlink', target: '/harness' },
      'main.py': { kind: 'file', sha256: sha('print(1)\n'), size: 9, mode: 0o644 },
      pkg: { kind: 'dir', mode: 0o755 },
      'pkg/empty': { kind: 'dir', mode: 0o755 },
      pw: { kind: 'symlink', target: '/etc/passwd' },
    });
  });

  it('sees a chmod, a retargeted link, and files the agent made unreadable', async () => {
    await sb.runCommand('echo a > f; ln -s f l; mkdir -p closed; echo b > closed/g', 10_000);
    const before = await sb.snapshot();
    await sb.runCommand('chmod 755 f; ln -sfn elsewhere l; chmod 000 closed', 10_000);
    const after = await sb.snapshot();
    expect(after.get('f')).toEqual({ ...before.get('f'), mode: 0o755 });
    expect(after.get('l')).toEqual({ kind: 'symlink', target: 'elsewhere' });
    expect(after.get('closed')).toEqual({ kind: 'dir', mode: 0 });
    expect(after.get('closed/g')).toEqual(before.get('closed/g'));
  });

  it('lists a large workspace whole (its speed is in scripts/bench.mjs)', async () => {
    // One process writes them all: 2000 traced processes would time the tracer, not the listing.
    const made = await sb.runCommand(
      `python3 -c 'import os
for d in range(1, 41):
    os.mkdir("d%d" % d)
    for f in range(1, 51):
        open("d%d/f %d" % (d, f), "wb").write(os.urandom(26000))'`,
      120_000,
    );
    expect(made.exitCode, made.stderr).toBe(0);
    const s = await sb.snapshot();
    expect(s.size).toBe(2040);
    const sums = await asRoot(sb, 'cd /workspace && sha256sum "d17/f 3" "d40/f 50"');
    const [a, b] = sums.stdout
      .trim()
      .split('\n')
      .map((line) => line.split(' ')[0]);
    expect(s.get('d17/f 3')).toMatchObject({ kind: 'file', sha256: a, size: 26000 });
    expect(s.get('d40/f 50')).toMatchObject({ kind: 'file', sha256: b, size: 26000 });
  }, 180_000);
});
