/**
 * `agent-bench validate` with its proof cache, through the built binary, on two dialogue tasks (they
 * run in the harness, so no engine is needed): the first run proves them and caches the proofs, the
 * second says each row is a cached proof, `--no-cache` proves them again, and a damaged entry is
 * ignored with a note and its task proven again. `--json` writes the rows; Ctrl-C removes the
 * sandboxes of the proofs in flight.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LABEL } from '../../src/sandbox/docker/labels.js';

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

describe('validate --json and Ctrl-C', () => {
  it('--json writes every row the table shows, as JSON', async () => {
    const file = join(cacheRoot, 'rows.json');
    const r = await validate('--json', file);
    const { rows } = JSON.parse(await readFile(file, 'utf8')) as { rows: { taskId: string; run: string }[] };
    expect(rows.map((row) => `${row.taskId} ${row.run}`)).toEqual(
      tableRows(r.stdout).map((line) =>
        line
          .split(/\s{2,}/)
          .slice(0, 2)
          .join(' '),
      ),
    );
  }, 600_000);

  it('a first SIGINT removes every sandbox it opened and exits 130', async () => {
    const child = spawn(process.execPath, [BIN, 'validate', '--tasks', 'debug_python_v1', '--no-cache'], {
      env: { ...process.env, AGENT_BENCH_CACHE: cacheRoot },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const mine = ['ps', '-aq', '--filter', `label=${LABEL.pid}=${child.pid}`];
    // Waits on the engine (no clock) until the proof's sandbox is up.
    while ((await run('docker', mine)).stdout.trim() === '') if (child.exitCode !== null) break;
    child.kill('SIGINT');
    expect(await exited, stderr).toBe(130);
    expect(stderr).toContain('SIGINT: stopping, removing containers');
    expect((await run('docker', mine)).stdout.trim()).toBe('');
  }, 300_000);
});
