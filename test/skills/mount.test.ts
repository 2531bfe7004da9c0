/**
 * The read-only skill mount, proven by trying: the agent cannot add, change, delete, rename or
 * chmod anything under /workspace/skill, nor move or replace the mount point; snapshots leave the
 * mount out (so it is never tamper nor an artifact); a reset wipes the agent's files and keeps it.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DockerSandbox } from '../../src/sandbox/index.js';
import { asRoot, IMAGE_TIMEOUT_MS, openSandbox } from '../sandbox/fixture.js';

let host: string;
let sb: DockerSandbox;

beforeAll(async () => {
  host = mkdtempSync(join(tmpdir(), 'agent-bench-mount-test-'));
  mkdirSync(join(host, 'scripts'));
  writeFileSync(join(host, 'SKILL.md'), '# skill\n');
  writeFileSync(join(host, 'scripts/run.sh'), '#!/bin/sh\necho ran\n');
  chmodSync(join(host, 'scripts/run.sh'), 0o755);
  chmodSync(host, 0o755);
  sb = await openSandbox({ mounts: [{ hostPath: host, containerPath: '/workspace/skill' }] });
}, IMAGE_TIMEOUT_MS);

afterAll(async () => {
  await sb?.dispose();
  rmSync(host, { recursive: true, force: true });
});

describe.sequential('a read-only skill mount', () => {
  it('is there for the agent to read and run', async () => {
    const r = await sb.runCommand(
      'cat skill/SKILL.md && ./skill/scripts/run.sh && sh skill/scripts/run.sh',
      10_000,
    );
    expect({ out: r.stdout, code: r.exitCode }).toEqual({ out: '# skill\nran\nran\n', code: 0 });
  });

  it('cannot be changed by the agent in any way', async () => {
    const attempts = [
      'echo x > skill/new.txt',
      'echo x >> skill/SKILL.md',
      'rm -f skill/SKILL.md',
      'rm -rf skill',
      'mv skill/SKILL.md skill/OTHER.md',
      'mv skill skill-moved',
      'rmdir skill',
      'chmod 777 skill skill/SKILL.md',
      'touch skill/SKILL.md',
      'sed -i s/skill/hacked/ skill/SKILL.md',
      'ln -sfn /tmp skill',
      'mkdir skill/sub',
    ];
    for (const command of attempts) {
      const r = await sb.runCommand(command, 10_000);
      expect(r.exitCode, command).not.toBe(0);
    }
    const tool = await sb.writeFile('skill/SKILL.md', 'replaced');
    expect(tool.ok).toBe(false);
    const view = await asRoot(
      sb,
      'ls -A /workspace/skill; cat /workspace/skill/SKILL.md; stat -c %a /workspace/skill',
    );
    expect(view.stdout).toBe('SKILL.md\nscripts\n# skill\n755\n');
    expect(readFileSync(join(host, 'SKILL.md'), 'utf8')).toBe('# skill\n');
  });

  it('is read-only for root too', async () => {
    const r = await asRoot(sb, 'touch /workspace/skill/x');
    expect(r.stderr).toMatch(/Read-only file system/);
  });

  it("is left out of snapshots, which still see the agent's files", async () => {
    await sb.runCommand('mkdir -p output && echo hi > output/a.txt', 10_000);
    const snap = await sb.snapshot();
    expect([...snap.keys()]).toEqual(['output', 'output/a.txt']);
  });

  it('survives a reset that wipes everything else, in the same container', async () => {
    const id = sb.id;
    await sb.runCommand('echo x > mine.txt; echo y > /tmp/t', 10_000);
    await sb.reset();
    expect(sb.id).toBe(id);
    expect([...(await sb.snapshot()).keys()]).toEqual([]);
    const r = await sb.runCommand('ls -A /workspace; cat skill/SKILL.md; ls -A /tmp', 10_000);
    expect(r.stdout).toBe('skill\n# skill\n');
  });
});
