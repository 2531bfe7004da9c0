/**
 * Bad paths given to the CLI, run in-process through main(): each is one line on stderr with the
 * usage exit code (2), before any model is asked or container starts; never "internal error", a
 * stack trace, or a command that never returns.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';

let base: string;
let stderr: string;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'agent-bench-bad-paths-'));
  stderr = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
});

afterEach(() => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
  rmSync(base, { recursive: true, force: true });
});

async function cli(...args: string[]): Promise<{ code: number; lines: string[] }> {
  process.exitCode = undefined;
  await main(['node', 'agent-bench', ...args]);
  return { code: Number(process.exitCode ?? 0), lines: stderr.trim().split('\n') };
}

/** A regular file, to point folders at. */
function aFile(): string {
  const file = join(base, 'a-file');
  writeFileSync(file, 'not a folder\n');
  return file;
}

const RUN = ['run', '--model', 'oracle', '--tasks', 'debug_python_v1'];

describe('--results-dir for runs', () => {
  it('under a regular file: one line naming the file, exit 2', async () => {
    const file = aFile();
    const r = await cli(...RUN, '--results-dir', join(file, 'results'));
    expect(r).toEqual({
      code: 2,
      lines: [`agent-bench: --results-dir ${join(file, 'results')}: ${file} is not a folder`],
    });
  });

  it('a regular file itself: one line, exit 2', async () => {
    const file = aFile();
    const r = await cli(...RUN, '--results-dir', file);
    expect(r).toEqual({ code: 2, lines: [`agent-bench: --results-dir ${file} is not a folder`] });
  });

  it('under /proc: returns with one line instead of spinning (Node recursive mkdir loops there)', async () => {
    const r = await cli(...RUN, '--results-dir', '/proc/agent-bench-x');
    expect(r).toEqual({
      code: 2,
      lines: ['agent-bench: --results-dir /proc/agent-bench-x: cannot create /proc/agent-bench-x (ENOENT)'],
    });
  });

  it('a folder that cannot be written: one line, exit 2, and nothing is left behind', async () => {
    const r = await cli(...RUN, '--results-dir', '/proc');
    expect(r.code).toBe(2);
    expect(r.lines).toEqual([
      expect.stringMatching(/^agent-bench: --results-dir \/proc is not writable \(E[A-Z]+\)/),
    ]);
  });

  it('a missing folder is made, level by level', async () => {
    const deep = join(base, 'a', 'b', 'c');
    const { writableResultsDir } = await import('../../src/cli/results-dir.js');
    expect(writableResultsDir(deep)).toBe(deep);
    expect(writableResultsDir(deep)).toBe(deep);
  });

  it('ladder checks it before asking any server', async () => {
    const file = aFile();
    const r = await cli(
      'ladder',
      '--models',
      'a,b',
      '--base-url',
      'http://127.0.0.1:9/v1',
      '--results-dir',
      join(file, 'x'),
    );
    expect(r).toEqual({
      code: 2,
      lines: [`agent-bench: --results-dir ${join(file, 'x')}: ${file} is not a folder`],
    });
  });
});

describe('--results-dir for readers', () => {
  it('report, tiers and serve refuse a file with one line, exit 2', async () => {
    const file = aFile();
    for (const args of [
      ['report', 'matrix', '--results-dir', file],
      ['report', 'tiers', '--results-dir', file],
      ['report', 'card', '--model', 'm', '--results-dir', file],
      ['serve', '--port', '0', '--results-dir', file],
    ]) {
      stderr = '';
      expect(await cli(...args), args.join(' ')).toEqual({
        code: 2,
        lines: [`agent-bench: --results-dir ${file} is not a folder`],
      });
    }
  });

  it('a missing folder is no results yet, said in one line', async () => {
    const r = await cli('report', 'matrix', '--results-dir', join(base, 'none'));
    expect(r.code).toBe(2);
    expect(r.lines).toEqual([expect.stringMatching(/^agent-bench: no results files in /)]);
  });
});

describe('--skill-dir', () => {
  it('a file, a missing folder, /proc: exit 2, no internal error', async () => {
    const file = aFile();
    for (const dir of [file, join(base, 'none'), '/proc']) {
      stderr = '';
      const r = await cli(...RUN.slice(0, 3), '--skill-dir', dir, '--results-dir', join(base, 'r'));
      expect(r.code, dir).toBe(2);
      expect(stderr, dir).toMatch(new RegExp(`^agent-bench: skill folder ${dir} has \\d+ problems?:\\n`));
      expect(stderr, dir).not.toMatch(/internal error| {4}at /);
    }
  });
});

describe('a system error no check foresaw', () => {
  it('is one line with the infrastructure exit code, not "this is a bug"', async () => {
    const results = join(base, 'results');
    mkdirSync(results);
    const { writeResultFile } = await import('../../src/results/store.js');
    const { result, PASS } = await import('../helpers/result-builder.js');
    await writeResultFile(results, result({ task: 'debug_python_v1', model: 'm', trials: [PASS] }));
    const out = join(base, 'no-such-folder', 'matrix.md');
    const r = await cli('report', 'matrix', '--results-dir', results, '--out', out);
    expect(r).toEqual({ code: 3, lines: [`agent-bench: ENOENT: no such file or directory, open '${out}'`] });
  });
});
