/**
 * The trace parser on real strace output, captured from the sandbox through the real wrapper
 * (fixtures/capture-traces.mjs says how). Pure: no Docker needed.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseTrace } from '../../src/sandbox/trace/parse.js';
import type { ProcessRecord } from '../../src/sandbox/trace/records.js';

const fixture = (name: string): string =>
  readFileSync(new URL(`fixtures/traces/${name}.strace`, import.meta.url), 'latin1');

/** As the sandbox parses an agent command (setpriv and the wrapper's cd shell come first). */
const agentTrace = (name: string): ProcessRecord[] =>
  parseTrace(fixture(name), { initialCwd: '/', harnessExecs: 2 });

const named = (records: ProcessRecord[], argv0: string): ProcessRecord[] =>
  records.filter((p) => p.argv?.[0] === argv0);

function one(records: ProcessRecord[], argv0: string): ProcessRecord {
  const found = named(records, argv0);
  expect(found, argv0).toHaveLength(1);
  return found[0] as ProcessRecord;
}

describe('parseTrace on agent commands', () => {
  it('starts with the command shell and leaves out the harness programs before it', () => {
    const [shell, ...rest] = agentTrace('pipe');
    expect(shell).toMatchObject({ parentPid: null, exe: '/bin/bash', exitCode: 0 });
    expect(shell?.argv?.at(-1)).toBe('echo "print(1)" > a.py; cat a.py | wc -c');
    expect(shell?.opens).toContainEqual({ path: '/workspace/a.py', write: true });
    // setpriv's reads are the harness's, not the command's.
    expect(shell?.opens.map((o) => o.path)).not.toContain('/proc/sys/kernel/cap_last_cap');
    expect(rest.map((p) => p.exe).sort()).toEqual(['/usr/bin/cat', '/usr/bin/wc']);
    for (const p of rest) expect(p.parentPid).toBe(shell?.pid);
  });

  it('records `cat a.py | wc -c` as cat reading the file and wc', () => {
    const records = agentTrace('pipe');
    const cat = one(records, 'cat');
    expect(cat).toMatchObject({ argv: ['cat', 'a.py'], cwd: '/workspace', exitCode: 0, signal: null });
    expect(cat.opens).toContainEqual({ path: '/workspace/a.py', write: false });
    expect(one(records, 'wc')).toMatchObject({ argv: ['wc', '-c'], exitCode: 0 });
  });

  it('follows cd: pytest runs in /workspace/sub with its arguments and reads the test file', () => {
    const py = one(agentTrace('pytest'), 'python3');
    expect(py).toMatchObject({
      exe: '/usr/bin/python3',
      argv: ['python3', '-m', 'pytest', '-q', '-p', 'no:cacheprovider'],
      cwd: '/workspace/sub',
      exitCode: 0,
    });
    expect(py.opens).toContainEqual({ path: '/workspace/sub/test_a.py', write: false });
  });

  it('has no record for a command that was not found (PATH search failures are no runs)', () => {
    const records = agentTrace('missing');
    expect(records).toHaveLength(1);
    expect(records.some((p) => p.exe?.includes('nosuch'))).toBe(false);
  });

  it('records exit codes and the signals that killed processes', () => {
    const records = agentTrace('signals');
    expect(records[0]).toMatchObject({ exitCode: 3, signal: null });
    const sleeps = named(records, 'sleep');
    expect(sleeps.find((p) => p.argv?.[1] === '5')).toMatchObject({ exitCode: null, signal: 'SIGKILL' });
    expect(sleeps.find((p) => p.argv?.[1] === '0.3')).toMatchObject({ exitCode: 0, signal: null });
    expect(one(records, 'python3')).toMatchObject({ exitCode: null, signal: 'SIGTERM' });
  });

  it('records a background job that outlived the command as still running', () => {
    expect(one(agentTrace('background'), 'sleep')).toMatchObject({
      argv: ['sleep', '30'],
      exitCode: null,
      signal: null,
    });
  });

  it('keeps the last program of a process that exec’d twice, and the chain', () => {
    const records = agentTrace('exec-chain');
    expect(records).toHaveLength(2);
    const child = records[1] as ProcessRecord;
    expect(child).toMatchObject({
      exe: '/usr/bin/python3',
      argv: ['python3', '-c', 'print(2)'],
      cwd: '/tmp',
    });
    expect(child.runs.map((r) => r.exe)).toEqual(['/usr/bin/bash', '/usr/bin/python3']);
    expect(child.runs[0]?.cwd).toBe('/workspace');
  });

  it('records the file a shell read its program from: whole on fd 0, not after a builtin read part', () => {
    const shells = named(agentTrace('stdin-file'), 'bash').filter((p) => p.parentPid !== null);
    expect(shells.map((p) => p.stdin)).toEqual(['/workspace/x.sh', null]);
    expect(shells[1]?.runs).toHaveLength(1);
  });

  it('records a pipe fed by `cat FILE` alone as that file, and one fed with more as nothing', () => {
    const shells = named(agentTrace('stdin-pipe'), 'bash').filter((p) => p.parentPid !== null);
    expect(shells.map((p) => p.stdin)).toEqual(['/workspace/x.sh', null]);
  });

  it('folds threads into their process: node and the shell it spawned, nothing else', () => {
    const records = agentTrace('node');
    expect(records.map((p) => p.exe)).toEqual(['/bin/bash', '/usr/bin/node', '/bin/sh']);
    const sh = records[2] as ProcessRecord;
    expect(sh.parentPid).toBe(records[1]?.pid);
    expect(sh.opens).toContainEqual({ path: '/workspace/out.txt', write: true });
  });

  it('records renames and removals with resolved paths', () => {
    const records = agentTrace('files');
    expect(one(records, 'touch').opens).toContainEqual({ path: '/workspace/d/x', write: true });
    expect(one(records, 'mv').renamed).toEqual([{ from: '/workspace/d/x', to: '/workspace/d/y' }]);
    expect(one(records, 'rm').removed).toEqual(['/workspace/d/y']);
    expect(one(records, 'rmdir').removed).toEqual(['/workspace/d']);
  });

  it('resolves paths relative to descriptors, through dup and fchdir (find -execdir)', () => {
    const records = agentTrace('find');
    const cat = one(records, 'cat');
    expect(cat).toMatchObject({ argv: ['cat', './f.py'], cwd: '/workspace/p/q' });
    expect(cat.opens).toContainEqual({ path: '/workspace/p/q/f.py', write: false });
    expect(one(records, 'find').opens).toContainEqual({ path: '/workspace/p/q', write: false });
  });

  it('decodes escaped bytes and quotes in arguments and paths', () => {
    const cat = one(agentTrace('unicode'), 'cat');
    expect(cat.argv).toEqual(['cat', 'é "x".txt']);
    expect(cat.opens).toContainEqual({ path: '/workspace/é "x".txt', write: false });
  });

  it('records what the timeout killed', () => {
    const records = agentTrace('timeout');
    expect(records.map((p) => p.signal)).toEqual(['SIGKILL', 'SIGKILL', 'SIGKILL']);
  });

  it('survives a trace cut anywhere: what was complete is kept, nothing is made up', () => {
    const text = fixture('pipe');
    for (let cut = 0; cut < text.length; cut += 997) {
      const records = parseTrace(text.slice(0, cut), { initialCwd: '/', harnessExecs: 2 });
      for (const p of records) expect(p.exe === null || p.exe.startsWith('/')).toBe(true);
    }
    const beforeCat = text.slice(0, text.indexOf('execve("/usr/bin/cat"'));
    expect(named(parseTrace(beforeCat, { initialCwd: '/', harnessExecs: 2 }), 'cat')).toEqual([]);
  });
});

describe('parseTrace on a harness exec as root', () => {
  it('skips only the wrapper’s cd shell, and records the chain of the exec’ing bash', () => {
    const records = parseTrace(fixture('root-exec'), { initialCwd: '/', harnessExecs: 1 });
    expect(records[0]).toMatchObject({ exe: '/usr/bin/ls', argv: ['ls', '/harness'], cwd: '/workspace' });
    expect(records[0]?.runs.map((r) => r.exe)).toEqual(['/usr/bin/bash', '/usr/bin/ls']);
    expect(one(records, 'cat').opens).toContainEqual({ path: '/etc/hostname', write: false });
  });
});
