/**
 * A Harbor task's separate verifier (tests/ is a build context) in validate as in run: test.sh runs
 * in the image built from tests/, never where the oracle ran, and is given a read-only copy of the
 * agent's work: the declared `artifacts` alone when task.toml declares them, else the workdir.
 * Each fixture's test.sh gives 1 only where it sees what it should (the image's marker; the
 * artifact and nothing else; a workdir it cannot write).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureImage } from '../../src/sandbox/index.js';
import { runHarborCli, validateHarborFolders } from '../helpers/harbor-cli.js';

const SEPARATE = join(import.meta.dirname, 'fixtures/harbor-separate-verifier');
const ARTIFACTS = join(import.meta.dirname, 'fixtures/harbor-separate-artifacts');

let base = '';
let scratch = '';

beforeAll(async () => {
  base = (await ensureImage()).tag;
  scratch = mkdtempSync(join(tmpdir(), 'harbor-separate-'));
}, 600_000);

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

/** The verifiers' copies still on the engine: none once a trial is over. */
const copies = () =>
  execFileSync('docker', ['volume', 'ls', '-q', '--filter', 'name=agent-bench-verifier-copy-'], {
    encoding: 'utf8',
  }).trim();

/** validate's rows for a task folder, as `<task> <run> <verdict>`. */
async function validated(dir: string, name: string): Promise<string[]> {
  const { rows, exitCode, out } = await validateHarborFolders([dir], { baseImage: base, taskNames: [name] });
  expect(exitCode, out).toBe(0);
  return rows.map((r) => r.split(/\s+/).slice(0, 3).join(' '));
}

describe.sequential('a Harbor task with a separate verifier', () => {
  it('validate verifies the oracle and doing nothing in the verifier’s own image', async () => {
    expect(await validated(SEPARATE, 'harbor-separate-verifier')).toEqual([
      'harbor-separate-verifier oracle ok',
      'harbor-separate-verifier do-nothing ok',
    ]);
    expect(copies()).toBe('');
  }, 600_000);

  it('validate gives it the declared artifacts alone, read-only', async () => {
    expect(await validated(ARTIFACTS, 'harbor-separate-artifacts')).toEqual([
      'harbor-separate-artifacts oracle ok',
      'harbor-separate-artifacts do-nothing ok',
    ]);
    expect(copies()).toBe('');
  }, 600_000);

  it('run gives it the declared artifacts alone, read-only, and the whole workspace when none are declared', async () => {
    const artifacts = await runHarborCli(scratch, ARTIFACTS, ['--base-image', base, '--model', 'oracle']);
    expect(artifacts.code, artifacts.stderr).toBe(0);
    expect(artifacts.result.trials[0]?.harbor_verifier?.output).toBe(
      'verifier image: separate; files: answer.txt ; writable: no',
    );
    // Without artifacts, the whole workspace: here solve.sh's one file, read-only too.
    const whole = await runHarborCli(scratch, SEPARATE, ['--base-image', base, '--model', 'oracle']);
    expect(whole.code, whole.stderr).toBe(0);
    expect(whole.result.trials[0]?.harbor_verifier?.output).toBe('verifier image: separate; answer: 42');
    expect(copies()).toBe('');
  }, 600_000);
});
