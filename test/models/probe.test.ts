import { afterEach, describe, expect, it } from 'vitest';
import { checkServer, probeLocalServers } from '../../src/models/probe.js';
import { InfraError } from '../../src/util/errors.js';
import {
  type ScriptedServer,
  type ScriptedServerOptions,
  startScriptedServer,
  unusedPortUrl,
} from '../helpers/scripted-server.js';

let server: ScriptedServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function serve(options: ScriptedServerOptions): Promise<ScriptedServer> {
  server = await startScriptedServer(options);
  return server;
}

describe('probeLocalServers', () => {
  it('returns the first target in order that lists a model', async () => {
    const s = await serve({ scripts: { 'qwen3:8b': [] } });
    const empty = await startScriptedServer({ scripts: {} });
    try {
      const found = await probeLocalServers({
        timeoutMs: 700,
        targets: [
          { baseUrl: await unusedPortUrl(), kind: 'llama-server' },
          { baseUrl: empty.baseUrl, kind: 'ollama' },
          { baseUrl: s.baseUrl, kind: 'lmstudio' },
        ],
      });
      expect(found).toEqual({ baseUrl: s.baseUrl, kind: 'lmstudio', models: ['qwen3:8b'] });
    } finally {
      await empty.close();
    }
  });

  it('returns null when nothing answers', async () => {
    expect(
      await probeLocalServers({
        timeoutMs: 300,
        targets: [{ baseUrl: await unusedPortUrl(), kind: 'ollama' }],
      }),
    ).toBeNull();
  });
});

describe('checkServer', () => {
  it('lists the models', async () => {
    const s = await serve({ scripts: { a: [] }, extraModels: ['b'] });
    expect(await checkServer(s.baseUrl)).toEqual(['a', 'b']);
  });

  it('throws one clear InfraError line for an unreachable server', async () => {
    const url = await unusedPortUrl();
    const err = await checkServer(url).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InfraError);
    expect((err as InfraError).exitCode).toBe(3);
    expect((err as InfraError).message).toBe(
      `model server at ${url} is unreachable: ECONNREFUSED — start it or pass --base-url`,
    );
  });

  it('adds /v1 to a bare host URL', async () => {
    const s = await serve({ scripts: { a: [] } });
    expect(await checkServer(s.baseUrl.replace(/\/v1$/, '/'))).toEqual(['a']);
  });
});
