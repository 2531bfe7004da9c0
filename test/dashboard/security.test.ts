import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listArtifacts } from '../../src/dashboard/artifacts.js';
import {
  confinedFile,
  hostAllowed,
  newSessionToken,
  originMatches,
  tokenMatches,
} from '../../src/dashboard/security.js';
import { CLEAN } from '../../src/results/condition.js';
import type { TrialRecord } from '../../src/results/trial.js';

describe('Host check (DNS rebinding)', () => {
  it('accepts loopback names on our port only', () => {
    expect(hostAllowed('127.0.0.1:8765', 8765, '127.0.0.1')).toBe(true);
    expect(hostAllowed('localhost:8765', 8765, '127.0.0.1')).toBe(true);
    expect(hostAllowed('[::1]:8765', 8765, '127.0.0.1')).toBe(true);
    expect(hostAllowed('127.0.0.1:9999', 8765, '127.0.0.1')).toBe(false);
    expect(hostAllowed(undefined, 8765, '127.0.0.1')).toBe(false);
  });

  it('refuses other names, which is what a rebinding page sends', () => {
    expect(hostAllowed('attacker.example:8765', 8765, '127.0.0.1')).toBe(false);
    expect(hostAllowed('localhost.attacker.example:8765', 8765, '127.0.0.1')).toBe(false);
    expect(hostAllowed('192.168.1.5:8765', 8765, '127.0.0.1')).toBe(false);
  });

  it('when bound to the network, accepts IP literals and the bound name, still no other names', () => {
    expect(hostAllowed('192.168.1.5:8765', 8765, '0.0.0.0')).toBe(true);
    expect(hostAllowed('bench.lan:8765', 8765, 'bench.lan')).toBe(true);
    expect(hostAllowed('attacker.example:8765', 8765, '0.0.0.0')).toBe(false);
  });
});

describe('Origin and token', () => {
  it('needs the exact origin of the Host', () => {
    expect(originMatches('http://127.0.0.1:8765', '127.0.0.1:8765')).toBe(true);
    expect(originMatches('http://evil.example', '127.0.0.1:8765')).toBe(false);
    expect(originMatches('null', '127.0.0.1:8765')).toBe(false);
    expect(originMatches(undefined, '127.0.0.1:8765')).toBe(false);
  });

  it('compares tokens exactly; each session has a fresh one', () => {
    const token = newSessionToken();
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(newSessionToken()).not.toBe(token);
    expect(tokenMatches(token, token)).toBe(true);
    expect(tokenMatches(token, `${token}x`)).toBe(false);
    expect(tokenMatches(token, undefined)).toBe(false);
    expect(tokenMatches(token, [token])).toBe(false);
  });
});

describe('path confinement', () => {
  const base = mkdtempSync(join(tmpdir(), 'ab-confine-'));
  const root = join(base, 'artifacts');
  mkdirSync(join(root, 'a'), { recursive: true });
  writeFileSync(join(root, 'a', 'ok.txt'), 'ok');
  writeFileSync(join(base, 'secret.txt'), 'secret');
  writeFileSync(join(base, 'artifacts-evil.txt'), 'sibling with the same prefix');
  symlinkSync(join(base, 'secret.txt'), join(root, 'a', 'link.txt'));
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('serves a file inside the folder', async () => {
    expect(await confinedFile(root, 'a/ok.txt')).toBe(join(root, 'a', 'ok.txt'));
  });

  it('refuses traversal, absolute paths, NUL, directories and symlinks that lead outside', async () => {
    for (const bad of [
      '../secret.txt',
      'a/../../secret.txt',
      '/etc/passwd',
      'a/ok.txt\0',
      'a',
      '../artifacts-evil.txt',
    ]) {
      expect(await confinedFile(root, bad), bad).toBeNull();
    }
    expect(await confinedFile(root, 'a/link.txt')).toBeNull();
  });
});

describe('a shared results folder with planted links', () => {
  const base = mkdtempSync(join(tmpdir(), 'ab-planted-'));
  const home = join(base, 'home');
  mkdirSync(home);
  writeFileSync(join(home, 'id_rsa'), 'PRIVATE KEY');
  const results = join(base, 'results');
  mkdirSync(results);
  symlinkSync(home, join(results, 'artifacts'));
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('serves nothing when the artifacts folder itself is a link', async () => {
    expect(await confinedFile(join(results, 'artifacts'), 'id_rsa')).toBeNull();
  });

  it('does not size host files a record lists under a climbing path', async () => {
    const own = join(base, 'own');
    const trialDir = join(own, 'artifacts', 't', 'm', 'trial-0');
    mkdirSync(trialDir, { recursive: true });
    const trial = { index: 0, artifacts: [{ path: '../../../../../home/id_rsa', size: null }] };
    const [view] = await listArtifacts(own, 't', 'm', trial as unknown as TrialRecord, CLEAN);
    expect(view).toMatchObject({ size: null, missing: true });
  });
});
