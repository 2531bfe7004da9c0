/**
 * llama-server names its model by the file it loaded: the report commands and the gate show the short
 * name, take it wherever a model is named, and say which models there are when a name matches none.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gateCommand } from '../../src/cli/commands/gate.js';
import {
  reportAxesCommand,
  reportCardCommand,
  reportMatrixCommand,
  reportRadarCommand,
} from '../../src/cli/commands/report.js';
import type { ResultFile } from '../../src/results/result-file.js';
import { UsageError } from '../../src/util/errors.js';
import { F, opsResult, P } from './ops-results.js';

const Q4 = '/root/.cache/agent-bench/models/qwen-tiny-Q4_K_M.gguf';
const Q8 = '/root/.cache/agent-bench/models/qwen-tiny-Q8_0.gguf';
const TWIN_A = '/llama/7B/ggml-model-q4_0.gguf';
const TWIN_B = '/llama/13B/ggml-model-q4_0.gguf';

let root: string;
let dir: string;
let twins: string;

async function folder(name: string, results: ResultFile[]): Promise<string> {
  const path = join(root, name);
  await mkdir(path, { recursive: true });
  for (const [i, r] of results.entries()) await writeFile(join(path, `r${i}.json`), JSON.stringify(r));
  return path;
}

const suite = (model: string, pass: boolean) =>
  ['a', 'b', 'c'].map((task) => opsResult({ task, model, k: 2, trials: pass ? [P, P] : [P, F] }));

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'ab-names-'));
  dir = await folder('both', [...suite(Q4, true), ...suite(Q8, false)]);
  twins = await folder('twins', [...suite(TWIN_A, true), ...suite(TWIN_B, true)]);
});
afterAll(() => rm(root, { recursive: true, force: true }));

async function text(run: (stdout: NodeJS.WritableStream) => Promise<void>): Promise<string> {
  const out = new PassThrough();
  let s = '';
  out.on('data', (c: Buffer) => {
    s += c.toString();
  });
  await run(out);
  return s;
}

const stderr = new PassThrough();

describe('model names in the report commands', () => {
  it('the matrix heads each column with the short name and lists the full names under it', async () => {
    const md = await text((stdout) => reportMatrixCommand({ resultsDir: dir, format: 'md', stdout, stderr }));
    expect(md.split('\n')[0]).toBe('| task | qwen-tiny-Q4_K_M | qwen-tiny-Q8_0 |');
    expect(md).toContain(`qwen-tiny-Q4_K_M = ${Q4}`);
    // The data formats keep the full name, as the results do.
    const csv = await text((stdout) =>
      reportMatrixCommand({ resultsDir: dir, format: 'csv', stdout, stderr }),
    );
    expect(csv).toContain(Q8);
  });

  it('--models, --compare, --model and the gate take the short name', async () => {
    const md = await text((stdout) =>
      reportMatrixCommand({ resultsDir: dir, format: 'md', models: 'qwen-tiny-Q8_0', stdout, stderr }),
    );
    expect(md.split('\n')[0]).toBe('| task | qwen-tiny-Q8_0 |');
    const compare = await text((stdout) =>
      reportAxesCommand({
        resultsDir: dir,
        format: 'md',
        compare: ['qwen-tiny-Q4_K_M', 'qwen-tiny-Q8_0'],
        stdout,
        stderr,
      }),
    );
    expect(compare.split('\n')[0]).toBe('# qwen-tiny-Q8_0 vs qwen-tiny-Q4_K_M, paired per task');
    const axes = await text((stdout) =>
      reportAxesCommand({ resultsDir: dir, format: 'md', models: 'qwen-tiny-Q4_K_M', stdout, stderr }),
    );
    expect(axes).toContain('| qwen-tiny-Q4_K_M |');
    expect(axes).not.toContain(Q4);
    const card = await text((stdout) =>
      reportCardCommand({ resultsDir: dir, model: 'qwen-tiny-Q4_K_M', format: 'md', stdout, stderr }),
    );
    expect(card.split('\n')[0]).toBe('# qwen-tiny-Q4_K_M');
    expect(card).toContain(`Model: ${Q4}`);
    const html = await text((stdout) =>
      reportRadarCommand({ resultsDir: dir, models: 'qwen-tiny-Q4_K_M,qwen-tiny-Q8_0', stdout, stderr }),
    );
    expect(html).toContain(`<th title="${Q4}">qwen-tiny-Q4_K_M</th>`);
    const gate = await text((stdout) =>
      gateCommand({
        baseline: dir,
        candidate: dir,
        baselineModel: 'qwen-tiny-Q4_K_M',
        candidateModel: 'qwen-tiny-Q4_K_M',
        costTolerance: 0.2,
        stdout,
        stderr,
      }),
    );
    expect(gate.split('\n')[0]).toBe(`gate: qwen-tiny-Q4_K_M (${dir}) against qwen-tiny-Q4_K_M (${dir})`);
  });

  it('an unknown name lists the models there are, by their short names', async () => {
    const error = reportCardCommand({ resultsDir: dir, model: 'qwen-tiny-Q5_K_M', format: 'md', stderr });
    await expect(error).rejects.toBeInstanceOf(UsageError);
    await expect(error).rejects.toThrow(
      `no results for model qwen-tiny-Q5_K_M in ${dir} (models with results: qwen-tiny-Q4_K_M, qwen-tiny-Q8_0)`,
    );
    await expect(
      reportAxesCommand({ resultsDir: dir, format: 'md', compare: ['qwen-tiny-Q4_K_M', 'nope'], stderr }),
    ).rejects.toThrow('no results for model nope');
    await expect(
      gateCommand({
        baseline: dir,
        candidate: dir,
        baselineModel: 'qwen-tiny-Q8_0',
        candidateModel: 'nope',
        costTolerance: 0.2,
        stderr,
      }),
    ).rejects.toThrow(
      /no results for model nope in --candidate .* \(models with results: qwen-tiny-Q4_K_M, qwen-tiny-Q8_0\)/,
    );
  });

  it('two models of one stem are told apart by a folder; the bare stem is ambiguous', async () => {
    const md = await text((stdout) =>
      reportMatrixCommand({ resultsDir: twins, format: 'md', stdout, stderr }),
    );
    expect(md.split('\n')[0]).toBe('| task | 13B/ggml-model-q4_0 | 7B/ggml-model-q4_0 |');
    const card = await text((stdout) =>
      reportCardCommand({ resultsDir: twins, model: '13B/ggml-model-q4_0', format: 'md', stdout, stderr }),
    );
    expect(card).toContain(`Model: ${TWIN_B}`);
    await expect(
      reportCardCommand({ resultsDir: twins, model: 'ggml-model-q4_0', format: 'md', stderr }),
    ).rejects.toThrow(`model ggml-model-q4_0 is ambiguous: it names ${TWIN_B}, ${TWIN_A}`);
  });
});
