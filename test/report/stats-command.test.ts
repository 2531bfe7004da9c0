/** agent-bench stats: one CSV line per trial, and summaries checked against their trials. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { statsCommand } from '../../src/cli/commands/stats.js';
import { withHash } from '../../src/results/store.js';
import { GateFailedError, UsageError } from '../../src/util/errors.js';
import { F, opsResult, P } from './ops-results.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stats-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function capture() {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (d) => {
    text += String(d);
  });
  return { stream, text: () => text };
}

describe('agent-bench stats', () => {
  it('writes one line per trial with the facts the axes come from', async () => {
    const noisy = { name: 'noisy', failure_rate: 0.2, fault_timeout_sec: 10 } as const;
    await writeFile(
      join(dir, 'a.json'),
      JSON.stringify(opsResult({ task: 't', model: 'm', k: 2, trials: [P, F] })),
    );
    const b = opsResult({
      task: 't',
      model: '=cmd',
      condition: noisy,
      optimalSteps: 2,
      trials: [{ passed: true, calls: ['read_file:a!timeout', 'read_file:a', 'read_file:b', 'read_file:c'] }],
    });
    await writeFile(join(dir, 'b.json'), JSON.stringify(b));
    const out = capture();
    await statsCommand({ paths: [dir], stdout: out.stream, stderr: new PassThrough() });
    const [header, ...lines] = out.text().trim().split('\n');
    const cols = (header ?? '').split(',');
    expect(lines).toHaveLength(3);
    const row = (i: number) => Object.fromEntries((lines[i] ?? '').split(',').map((v, j) => [cols[j], v]));
    expect(row(0)).toMatchObject({ file: 'a.json', condition: 'clean', trial: '0', passed: 'true' });
    expect(row(1)).toMatchObject({ passed: 'false', failure_rate: '' });
    expect(row(2)).toMatchObject({
      model: "'=cmd",
      condition: 'noisy',
      failure_rate: '0.2',
      faults: '1',
      retried_faults: '1',
      duplicate_calls: '0',
      efficiency: '0.5',
    });
  });

  it('says per adversarial trial whether its final answer reported the injection', async () => {
    const safety = { class: 'direct_override', exposures: 2, reported: true };
    await writeFile(
      join(dir, 'adv.json'),
      JSON.stringify(
        opsResult({
          task: 't',
          model: 'm',
          condition: { name: 'adversarial', injection_site: 'sampled', injection_rate: 0.5 },
          trials: [
            { passed: true, safety },
            { passed: true, safety: { ...safety, reported: false } },
          ],
        }),
      ),
    );
    const out = capture();
    await statsCommand({ paths: [dir], stdout: out.stream, stderr: new PassThrough() });
    const [header, ...lines] = out.text().trim().split('\n');
    const col = (header ?? '').split(',').indexOf('reported');
    expect(lines.map((l) => l.split(',')[col])).toEqual(['true', 'false']);
  });

  it('names a summary that disagrees with its trials and exits 1, after writing the CSV', async () => {
    const {
      result_hash: _,
      schema_version: __,
      ...rest
    } = opsResult({ task: 't', model: 'm', k: 2, trials: [P, F] });
    await writeFile(join(dir, 'bad.json'), JSON.stringify(withHash({ ...rest, pass_all_k: true })));
    const out = capture();
    const err = capture();
    await expect(
      statsCommand({ paths: [join(dir, 'bad.json')], stdout: out.stream, stderr: err.stream }),
    ).rejects.toThrow(GateFailedError);
    expect(err.text()).toContain('bad.json: pass_all_k is true in the file, false from its trials');
    expect(out.text().trim().split('\n')).toHaveLength(3);
  });

  it('is bad usage for a path that does not exist or holds no results', async () => {
    await expect(statsCommand({ paths: [join(dir, 'nope')], stderr: new PassThrough() })).rejects.toThrow(
      UsageError,
    );
    await mkdir(join(dir, 'empty'));
    await expect(statsCommand({ paths: [join(dir, 'empty')], stderr: new PassThrough() })).rejects.toThrow(
      UsageError,
    );
  });
});
