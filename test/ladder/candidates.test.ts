import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCandidates } from '../../src/ladder/candidates.js';
import { planLadder } from '../../src/ladder/plan.js';
import { UsageError } from '../../src/util/errors.js';
import { gguf, writeGguf } from '../helpers/gguf-writer.js';
import { type ScriptedServer, startScriptedServer } from '../helpers/scripted-server.js';

let server: ScriptedServer;
let dir: string;
beforeAll(async () => {
  server = await startScriptedServer({
    scripts: { 'big-14b-q8_0': [], 'tiny-0.5b-q4_K_M': [] },
    extraModels: ['small-3b-q4_K_M', 'mystery'],
  });
  dir = await mkdtemp(join(tmpdir(), 'ladder-gguf-'));
  for (const [name, bytes] of [
    ['b-Q8_0.gguf', 5000],
    ['a-Q4_K_M.gguf', 3000],
  ] as const) {
    await writeGguf(join(dir, name), { kv: [['general.architecture', gguf.str('llama')]] });
    await appendFile(join(dir, name), Buffer.alloc(bytes));
  }
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('findCandidates', () => {
  it('--models: the named models with what the server and their names say, in ladder order once planned', async () => {
    const found = await findCandidates({
      kind: 'server',
      baseUrl: server.baseUrl,
      models: ['big-14b-q8_0', 'mystery', 'small-3b-q4_K_M'],
    });
    expect(found.baseUrl).toBe(server.baseUrl);
    const ladder = planLadder(found.models);
    expect(ladder.map((m) => m.id)).toEqual(['small-3b-q4_K_M', 'big-14b-q8_0', 'mystery']);
    expect(ladder.map((m) => m.size?.source ?? null)).toEqual(['estimate', 'estimate', null]);
  });

  it('--models-from-server: every model the server lists', async () => {
    const found = await findCandidates({ kind: 'server', baseUrl: server.baseUrl, models: 'all' });
    expect(found.models.map((m) => m.name).sort()).toEqual([
      'big-14b-q8_0',
      'mystery',
      'small-3b-q4_K_M',
      'tiny-0.5b-q4_K_M',
    ]);
  });

  it('a model the server does not offer is a usage error naming what it does offer', async () => {
    const attempt = findCandidates({
      kind: 'server',
      baseUrl: server.baseUrl,
      models: ['tiny-0.5b-q4_K_M', 'typo'],
    });
    await expect(attempt).rejects.toBeInstanceOf(UsageError);
    await expect(attempt).rejects.toThrow(/does not offer typo; it offers: .*big-14b-q8_0/);
  });

  it('--gguf-dir: the files, sized by the file, by absolute path', async () => {
    const found = await findCandidates({ kind: 'gguf-dir', dir });
    expect(found.baseUrl).toBeNull();
    const ladder = planLadder(found.models);
    expect(ladder.map((m) => m.label)).toEqual(['a-Q4_K_M', 'b-Q8_0']);
    expect(ladder[0]?.id).toBe(join(dir, 'a-Q4_K_M.gguf'));
    expect(ladder[0]?.size?.source).toBe('file');
  });

  it('an empty GGUF folder is a usage error', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'ladder-empty-'));
    await expect(findCandidates({ kind: 'gguf-dir', dir: empty })).rejects.toThrow(
      /no readable GGUF model file/,
    );
    await rm(empty, { recursive: true });
  });
});
