import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { detectServerKind } from '../../src/discovery/detect.js';
import { probeLocal } from '../../src/discovery/local-probe.js';
import { listModels } from '../../src/discovery/servers.js';
import { InfraError, UsageError } from '../../src/util/errors.js';
import { gguf, writeGguf } from '../helpers/gguf-writer.js';
import {
  type FakeServer,
  genericRoutes,
  llamaServerRoutes,
  lmStudioV0Routes,
  lmStudioV1Routes,
  ollamaRoutes,
  type Routes,
  startFakeServer,
} from './fake-servers.js';

const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(routes: Routes): Promise<FakeServer> {
  const s = await startFakeServer(routes);
  servers.push(s);
  return s;
}

async function closedPort(): Promise<number> {
  const s = await startFakeServer({});
  await s.close();
  return s.port;
}

const fast = { timeoutMs: 1000 };

describe('detectServerKind', () => {
  it.each([
    ['ollama', ollamaRoutes()],
    ['lmstudio', lmStudioV1Routes()],
    ['lmstudio', lmStudioV0Routes()],
    ['llama-server', llamaServerRoutes()],
    ['openai-compatible', genericRoutes()],
  ] as const)('recognises %s', async (kind, routes) => {
    const s = await serve(routes);
    expect(await detectServerKind(`${s.url}/v1`, fast)).toBe(kind);
    expect(await detectServerKind(s.url, fast)).toBe(kind);
  });

  it('says in one line that nothing answers', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const err = await detectServerKind(url, fast).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InfraError);
    expect((err as Error).message).toMatch(/^no model server answers at http:\/\/127\.0\.0\.1:\d+\/v1/);
    expect((err as Error).message).not.toContain('\n');
  });
});

describe('listModels', () => {
  it('Ollama: exact parameters, quantization, size, training context and tools from /api/tags + /api/show', async () => {
    const s = await serve(ollamaRoutes());
    const models = await listModels(s.url, fast);
    expect(models.map((m) => m.name)).toEqual(['qwen3:8b', 'gemma3:270m']); // the embedding model is no candidate
    expect(models[0]).toEqual({
      name: 'qwen3:8b',
      kind: 'ollama',
      family: 'qwen3',
      parameters: 8.19073536,
      activeParameters: null,
      effectiveParameters: null,
      quantization: 'Q4_K_M',
      weightBytes: 5_225_388_164,
      weightSource: 'server',
      contextLength: 40_960,
      toolSupport: true,
      sources: { parameters: 'server', quantization: 'server', contextLength: 'server' },
    });
    expect(models[1]).toMatchObject({ parameters: 0.2681, quantization: 'Q8_0', toolSupport: false });
  });

  it('Ollama without /api/show: what /api/tags says, the rest unknown', async () => {
    const s = await serve(ollamaRoutes({ showFails: true }));
    const [qwen] = await listModels({ kind: 'ollama', baseUrl: s.url }, fast);
    expect(qwen).toMatchObject({
      parameters: 8.2,
      contextLength: null,
      toolSupport: null,
      weightSource: 'server',
    });
  });

  it('LM Studio v1: size, parameters, quantization and trained_for_tool_use; embeddings left out', async () => {
    const s = await serve(lmStudioV1Routes());
    const models = await listModels(s.url, fast);
    expect(models).toHaveLength(1);
    expect(models[0]).toMatchObject({
      name: 'gemma-3-270m-it-qat',
      kind: 'lmstudio',
      parameters: 0.27,
      quantization: 'Q4_0',
      weightBytes: 241_410_208,
      weightSource: 'server',
      contextLength: 32_768,
      toolSupport: false,
    });
  });

  it('LM Studio v0: no size is served, so it is estimated and marked so; parameters come from the name', async () => {
    const s = await serve(lmStudioV0Routes());
    const models = await listModels(s.url, fast);
    expect(models.map((m) => m.name)).toEqual(['meta-llama-3.1-8b-instruct', 'qwen2-vl-7b-instruct']);
    expect(models[0]).toMatchObject({
      parameters: 8,
      quantization: 'Q4_K_M',
      weightSource: 'estimate',
      contextLength: 131_072,
      toolSupport: true,
      sources: { parameters: 'name', quantization: 'server', contextLength: 'server' },
    });
    expect(models[0]?.weightBytes).toBe(Math.round((8e9 * 4.9) / 8));
    expect(models[1]).toMatchObject({ quantization: '4BIT', parameters: 7, toolSupport: null });
  });

  it('llama-server: meta gives parameters, size and training context; the local GGUF file gives the quantization', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'llama-server-'));
    try {
      const modelPath = join(dir, 'model.gguf');
      await writeGguf(modelPath, {
        kv: [
          ['general.architecture', gguf.str('qwen3')],
          ['general.file_type', gguf.u32(18)],
        ],
      });
      const s = await serve(llamaServerRoutes({ modelPath }));
      const [m] = await listModels(`${s.url}/v1`, fast);
      expect(m).toMatchObject({
        name: 'Qwen3-4B',
        kind: 'llama-server',
        parameters: 4.022468096,
        quantization: 'Q6_K',
        weightBytes: 2_497_280_256,
        contextLength: 40_960,
        toolSupport: true,
        sources: { parameters: 'server', quantization: 'file', contextLength: 'server' },
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('llama-server whose model file is not readable here: quantization unknown, never guessed', async () => {
    const s = await serve(llamaServerRoutes());
    const [m] = await listModels(s.url, fast);
    expect(m).toMatchObject({ quantization: null, sources: { quantization: null } });
  });

  it('any OpenAI-compatible server: ids parsed, served context when reported', async () => {
    const s = await serve(genericRoutes());
    const models = await listModels(s.url, fast);
    expect(models[0]).toMatchObject({
      name: 'Qwen/Qwen3-8B-FP8',
      parameters: 8,
      quantization: 'FP8',
      contextLength: 32_768,
    });
    expect(models[1]).toMatchObject({
      parameters: 8,
      quantization: 'Q4_K_M',
      weightSource: 'estimate',
      contextLength: null,
      sources: { parameters: 'name', quantization: 'name', contextLength: null },
    });
  });

  it('a server that answers HTML or hangs: a one-line InfraError, never a crash', async () => {
    const html = await serve({ 'GET /v1/models': { text: '<html>oops</html>' } });
    await expect(listModels({ kind: 'openai-compatible', baseUrl: html.url }, fast)).rejects.toThrow(
      /not JSON/,
    );
    const hang = await serve({ 'GET /v1/models': { hang: true } });
    const started = Date.now();
    const err = await listModels({ kind: 'openai-compatible', baseUrl: hang.url }, { timeoutMs: 200 }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(InfraError);
    expect((err as Error).message).toMatch(/no answer within 200 ms/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('a malformed URL is a usage error, not a network one', async () => {
    await expect(listModels('127.0.0.1:8080', fast)).rejects.toThrow(UsageError);
  });

  it('an unreachable server: InfraError naming the URL', async () => {
    const port = await closedPort();
    await expect(listModels({ kind: 'ollama', baseUrl: `http://127.0.0.1:${port}` }, fast)).rejects.toThrow(
      new RegExp(`127\\.0\\.0\\.1:${port}/api/tags: cannot connect \\(ECONNREFUSED\\)`),
    );
  });
});

describe('probeLocal', () => {
  it('finds each kind of server on its port and skips closed ports', async () => {
    const ollama = await serve(ollamaRoutes());
    const llama = await serve(llamaServerRoutes());
    const closed = await closedPort();
    const found = await probeLocal({ ports: [llama.port, closed, ollama.port], timeoutMs: 500 });
    expect(found).toEqual([
      { kind: 'llama-server', baseUrl: `http://127.0.0.1:${llama.port}/v1` },
      { kind: 'ollama', baseUrl: `http://127.0.0.1:${ollama.port}/v1` },
    ]);
  });
});
