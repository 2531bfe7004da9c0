/**
 * The run panel's model list without --base-url: the local server a run would find is listed, so
 * the Run tab offers its models and not only the reference agent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fetchModelList } from '../../src/dashboard/model-list.js';
import type { Dashboard } from '../../src/dashboard/server.js';
import { type ScriptedServer, startScriptedServer, unusedPortUrl } from '../helpers/scripted-server.js';
import { copyFixtures, raw, startTestDashboard } from './harness.js';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const done of cleanup.splice(0).reverse()) await done();
});

async function llamaServer(): Promise<ScriptedServer> {
  const s = await startScriptedServer({
    scripts: { 'Qwen3-4B-Q4_K_M.gguf': [] },
    props: { build_info: 'b6100-test', default_generation_settings: { n_ctx: 16_384 } },
  });
  cleanup.push(() => s.close());
  return s;
}

describe('the run panel finds local model servers as run and doctor do', () => {
  it('lists the first local server that lists a model, with its URL', async () => {
    const s = await llamaServer();
    const list = await fetchModelList(null, {}, [
      { baseUrl: await unusedPortUrl(), kind: 'ollama' },
      { baseUrl: s.baseUrl, kind: 'llama-server' },
    ]);
    expect(list).toEqual({
      models: ['Qwen3-4B-Q4_K_M.gguf'],
      builtin: ['oracle'],
      base_url: s.baseUrl,
      error: null,
    });
  });

  it('with none answering, says where it looked', async () => {
    const list = await fetchModelList(null, {}, [{ baseUrl: await unusedPortUrl(), kind: 'llama-server' }]);
    expect(list.models).toEqual([]);
    expect(list.error).toMatch(/^no model server answers on 127\.0\.0\.1 \(:\d+\)/);
  });

  it("serve without --base-url offers the local server's models on /api/models", async () => {
    const s = await llamaServer();
    const fixtures = copyFixtures();
    cleanup.push(fixtures.remove);
    const dash: Dashboard = await startTestDashboard({
      resultsDir: fixtures.dir,
      localServers: [{ baseUrl: s.baseUrl, kind: 'llama-server' }],
    });
    cleanup.push(() => dash.close());
    const list = JSON.parse((await raw(dash.port, 'GET', '/api/models')).body);
    expect(list.models).toEqual(['Qwen3-4B-Q4_K_M.gguf']);
    expect(list.base_url).toBe(s.baseUrl);
  });
});
