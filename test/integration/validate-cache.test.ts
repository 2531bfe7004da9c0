/**
 * `agent-bench validate` with its proof cache, through the built binary, on two dialogue tasks (they
 * run in the harness, so no engine is needed): the first run proves them and caches the proofs, the
 * second says each row is a cached proof, `--no-cache` proves them again, and a damaged entry is
 * ignored with a note and its task proven again.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const BIN = join(import.meta.dirname, '../../bin/agent-bench');
const TASKS = 'helpdesk_buy_monitor_under_limit,helpdesk_buy_two_monitors_at_limit';

let cacheRoot = '';
beforeAll(async () => {
  cacheRoot = await mkdtemp(join(tmpdir(), 'validate-cache-'));
});
afterAll(async () => {
  await rm(cacheRoot, { recursive: true, force: true });
});

async function validate(...extra: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, [BIN, 'validate', '--tasks', TASKS, '--parallel', '2', ...extra], {
    env: { ...process.env, AGENT_BENCH_CACHE: cacheRoot },
    timeout: 300_000,
  });
}

const CACHED = /\(cached proof from \d{4}-\d{2}-\d{2}, key [0-9a-f]{12}\)$/;

function tableRows(stdout: string): string[] {
  return stdout.split('\n').filter((line) => line.startsWith('helpdesk_'));
}

describe.sequential('validate, proof cache', () => {
  it('proves on the first run, and says the second run used cached proofs', async () => {
    const first = await validate();
    const rows = tableRows(first.stdout);
    expect(rows.length).toBeGreaterThanOrEqual(6);
    expect(rows.filter((row) => CACHED.test(row))).toEqual([]);
    expect(first.stdout).toMatch(/^\d+ validations passed for 2 task\(s\)$/m);
    expect(first.stderr).toMatch(/^validate took [\d.]+ s: 2 task\(s\) proven, 0 from cached proofs/m);
    expect(await readdir(join(cacheRoot, 'proofs'))).toHaveLength(2);

    const second = await validate();
    const again = tableRows(second.stdout);
    expect(again).toHaveLength(rows.length);
    for (const row of again) expect(row).toMatch(CACHED);
    expect(second.stderr).toMatch(/^validate took [\d.]+ s: 0 task\(s\) proven, 2 from cached proofs/m);
    // Rows in the same order, with the same verdicts.
    expect(again.map((row) => row.replace(CACHED, '').trimEnd())).toEqual(rows.map((row) => row.trimEnd()));
  }, 600_000);

  it('--no-cache proves every task again', async () => {
    const fresh = await validate('--no-cache');
    expect(tableRows(fresh.stdout).filter((row) => CACHED.test(row))).toEqual([]);
    expect(fresh.stderr).toContain('2 task(s) proven, 0 from cached proofs (--no-cache)');
  }, 600_000);

  it('ignores a damaged entry with a note, and proves that task again', async () => {
    const [entry] = await readdir(join(cacheRoot, 'proofs'));
    if (entry === undefined) throw new Error('no cached proof');
    await writeFile(join(cacheRoot, 'proofs', entry), '{"format":');
    const r = await validate();
    expect(r.stderr).toMatch(
      /note: helpdesk_\w+: ignored the cached proof .* \(not JSON: a damaged file\); proving it again/,
    );
    const rows = tableRows(r.stdout);
    expect(rows.filter((row) => CACHED.test(row)).length).toBeGreaterThan(0);
    expect(rows.filter((row) => !CACHED.test(row)).length).toBeGreaterThan(0);
  }, 600_000);
});
