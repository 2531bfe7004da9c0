import { afterEach, describe, expect, it } from 'vitest';
import { environmentServer, preRunWarnings } from '../../src/discovery/pre-run.js';
import { describeServerDetails } from '../../src/discovery/servers.js';
import type { ServerDetails } from '../../src/discovery/types.js';
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

const fast = { timeoutMs: 1000 };

describe('describeServerDetails', () => {
  it('llama-server: build, per-slot context, slots and template tool support from /props', async () => {
    const s = await serve(llamaServerRoutes());
    expect(await describeServerDetails(`${s.url}/v1`, 'Qwen3-4B', fast)).toEqual({
      kind: 'llama-server',
      baseUrl: `${s.url}/v1`,
      version: 'b6100-2b1a8f3c',
      contextLength: 8192,
      trainedContextLength: 40_960,
      parallelSlots: 4,
      toolSupport: true,
    });
  });

  it('llama-server without chat_template_caps: tool support unknown, not assumed', async () => {
    const s = await serve(llamaServerRoutes({ caps: false }));
    expect((await describeServerDetails(s.url, 'Qwen3-4B', fast)).toolSupport).toBeNull();
  });

  it('Ollama: version, the loaded context from /api/ps, capabilities', async () => {
    const s = await serve(ollamaRoutes({ loadedContext: 4096 }));
    expect(await describeServerDetails(s.url, 'qwen3:8b', fast)).toEqual({
      kind: 'ollama',
      baseUrl: `${s.url}/v1`,
      version: '0.12.3',
      contextLength: 4096,
      trainedContextLength: 40_960,
      parallelSlots: null,
      toolSupport: true,
    });
  });

  it("Ollama with the model not loaded: the Modelfile's num_ctx; none at all: unknown", async () => {
    const s = await serve(ollamaRoutes());
    expect((await describeServerDetails(s.url, 'qwen3:8b', fast)).contextLength).toBe(8192);
    expect(await describeServerDetails(s.url, 'gemma3:270m', fast)).toMatchObject({
      contextLength: null,
      toolSupport: false,
    });
  });

  it('LM Studio v1: the loaded instance context and trained_for_tool_use; v0: loaded_context_length and capabilities', async () => {
    const v1 = await serve(lmStudioV1Routes());
    expect(await describeServerDetails(v1.url, 'gemma-3-270m-it-qat', fast)).toMatchObject({
      kind: 'lmstudio',
      version: null,
      contextLength: 4096,
      trainedContextLength: 32_768,
      toolSupport: false,
    });
    const v0 = await serve(lmStudioV0Routes());
    expect(await describeServerDetails(v0.url, 'meta-llama-3.1-8b-instruct', fast)).toMatchObject({
      contextLength: 8192,
      trainedContextLength: 131_072,
      toolSupport: true,
    });
    expect(await describeServerDetails(v0.url, 'qwen2-vl-7b-instruct', fast)).toMatchObject({
      contextLength: null,
      toolSupport: null,
    });
  });

  it('a generic server: only what it reports', async () => {
    const s = await serve(genericRoutes());
    expect(await describeServerDetails(s.url, 'Qwen/Qwen3-8B-FP8', fast)).toMatchObject({
      kind: 'openai-compatible',
      version: null,
      contextLength: 32_768,
      toolSupport: null,
    });
  });
});

const details = (over: Partial<ServerDetails>): ServerDetails => ({
  kind: 'llama-server',
  baseUrl: 'http://127.0.0.1:8080/v1',
  version: 'b1',
  contextLength: 32_768,
  trainedContextLength: 40_960,
  parallelSlots: 1,
  toolSupport: true,
  ...over,
});

describe('preRunWarnings', () => {
  it('says nothing when the context is large enough and the template takes tools', () => {
    expect(preRunWarnings(details({}), 16_384)).toEqual([]);
  });

  it('warns when the served context is smaller than the suite needs, with the fix for that server', () => {
    const [w] = preRunWarnings(details({ contextLength: 4096 }), 16_384);
    expect(w).toMatch(/context of 4096 tokens \(the model supports 40960\), less than the 16384/);
    expect(w).toMatch(/-c/);
    expect(preRunWarnings(details({ kind: 'ollama', contextLength: 2048 }), 8192)[0]).toMatch(
      /OLLAMA_CONTEXT_LENGTH/,
    );
  });

  it('says an unknown context is unknown rather than assuming it is enough', () => {
    expect(preRunWarnings(details({ contextLength: null }), 16_384)[0]).toMatch(
      /does not say its context length/,
    );
  });

  it('warns that the text-format parser carries a run whose template has no tool support', () => {
    const warnings = preRunWarnings(details({ toolSupport: false }), 16_384);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/no tool support.*text-format parser/);
    expect(preRunWarnings(details({ toolSupport: null }), 16_384)).toEqual([]);
  });
});

describe('environmentServer', () => {
  it('records the server in the results-file shape', () => {
    expect(environmentServer(details({ toolSupport: false }))).toEqual({
      kind: 'llama-server',
      version: 'b1',
      context_length: 32_768,
      parallel_slots: 1,
      tool_support: false,
    });
  });
});
