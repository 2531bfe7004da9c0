/** The model a run asks for is checked against the server's list before any trial. */
import { afterEach, describe, expect, it } from 'vitest';
import { type ModelRequest, resolveModel } from '../../src/run/resolve-model.js';
import { InfraError } from '../../src/util/errors.js';
import { type ScriptedServer, startScriptedServer } from '../helpers/scripted-server.js';

let server: ScriptedServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const request = (baseUrl: string, model: string): ModelRequest => ({
  model,
  baseUrl,
  apiKeyEnv: 'AGENT_BENCH_TEST_KEY',
  sampling: { temperature: 0 },
  requestTimeoutMs: 1000,
  retries: 0,
});

describe('resolveModel', () => {
  it('refuses a model the server does not list, with the list, before any chat request (exit 3)', async () => {
    server = await startScriptedServer({ scripts: { 'qwen3:8b': [] }, extraModels: ['llama3.2:3b'] });
    const err = await resolveModel(request(server.baseUrl, 'qwen3:14b')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InfraError);
    expect((err as InfraError).exitCode).toBe(3);
    expect((err as Error).message).toBe(
      `the model server at ${server.baseUrl} does not list the model "qwen3:14b" (it lists: qwen3:8b, llama3.2:3b); pass one of those to --model`,
    );
    expect(server.requests).toEqual([]);
  });

  it('takes a listed model, and a name Ollama lists with its :latest tag', async () => {
    server = await startScriptedServer({ scripts: { 'qwen3:8b': [], 'phi4:latest': [] } });
    await expect(resolveModel(request(server.baseUrl, 'qwen3:8b'))).resolves.toMatchObject({
      name: 'qwen3:8b',
    });
    await expect(resolveModel(request(server.baseUrl, 'phi4'))).resolves.toMatchObject({ name: 'phi4' });
  });
});

describe('resolveModel: built-in agents', () => {
  it('--base-url with --model oracle is a one-line note that it is ignored, and no server is asked', async () => {
    server = await startScriptedServer({ scripts: { 'qwen3:8b': [] } });
    const resolved = await resolveModel(request(server.baseUrl, 'oracle'));
    expect(resolved.name).toBe('oracle');
    expect(resolved.notice).toBe(
      `--base-url ${server.baseUrl} is ignored: --model oracle asks no model server.`,
    );
    expect(server.requests).toEqual([]);
    const { baseUrl: _, ...withoutUrl } = request(server.baseUrl, 'oracle');
    expect((await resolveModel(withoutUrl)).notice).toBeNull();
  });
});
