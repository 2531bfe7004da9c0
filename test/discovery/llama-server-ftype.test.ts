/** The quantization llama-server reports (meta.ftype, /props model_ftype), so a remote server shows one too. */
import { afterEach, describe, expect, it } from 'vitest';
import { ftypeName } from '../../src/discovery/llama-server.js';
import { listModels } from '../../src/discovery/servers.js';
import { type FakeServer, llamaServerRoutes, type Routes, startFakeServer } from './fake-servers.js';

const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** llama-server's routes with `ftype` in /v1/models meta and `model_ftype` in /props, as recent builds send. */
function reporting(meta: string | undefined, props: string | undefined): Routes {
  const routes = llamaServerRoutes();
  const list = routes['GET /v1/models'] as { json: { data: { meta: Record<string, unknown> }[] } };
  const info = routes['GET /props'] as { json: Record<string, unknown> };
  for (const m of list.json.data) if (meta !== undefined) m.meta.ftype = meta;
  if (props !== undefined) info.json.model_ftype = props;
  return routes;
}

describe('ftypeName', () => {
  it.each([
    ['Q4_K - Medium', 'Q4_K_M'],
    ['Q3_K - Small', 'Q3_K_S'],
    ['Q5_K - Large', 'Q5_K_L'],
    ['Q2_K - Medium', 'Q2_K'],
    ['Q2_K - Small', 'Q2_K_S'],
    ['Q6_K', 'Q6_K'],
    ['Q8_0', 'Q8_0'],
    ['all F32', 'F32'],
    ['BF16', 'BF16'],
    ['IQ2_XXS - 2.0625 bpw', 'IQ2_XXS'],
    ['IQ3_S mix - 3.66 bpw', 'IQ3_M'],
    ['TQ1_0 - 1.69 bpw ternary', 'TQ1_0'],
    ['MXFP4 MoE', 'MXFP4_MOE'],
    ['(guessed) Q4_K - Medium', 'Q4_K_M'],
  ])('%s -> %s', (said, ours) => {
    expect(ftypeName(said)).toBe(ours);
  });

  it.each([['unknown, may not work'], ['(guessed) unknown, may not work'], [''], [7], [null]])(
    '%j is no quantization',
    (said) => {
      expect(ftypeName(said)).toBeNull();
    },
  );
});

describe('llama-server quantization', () => {
  it('comes from the server when it reports one, though its model file is not readable here', async () => {
    const s = await startFakeServer(reporting('Q4_K - Medium', 'Q4_K - Medium'));
    servers.push(s);
    const [m] = await listModels(`${s.url}/v1`, { timeoutMs: 1000 });
    expect(m).toMatchObject({ quantization: 'Q4_K_M', sources: { quantization: 'server' } });
  });

  it('/props model_ftype serves when the model list has none', async () => {
    const s = await startFakeServer(reporting(undefined, 'Q6_K'));
    servers.push(s);
    const [m] = await listModels(`${s.url}/v1`, { timeoutMs: 1000 });
    expect(m).toMatchObject({ quantization: 'Q6_K', sources: { quantization: 'server' } });
  });

  it('an older build that reports none: the name is all there is for a file it cannot read', async () => {
    const s = await startFakeServer(reporting(undefined, undefined));
    servers.push(s);
    const [m] = await listModels(`${s.url}/v1`, { timeoutMs: 1000 });
    // 'Qwen3-4B' names no quantization, and /nonexistent/model.gguf cannot be read.
    expect(m).toMatchObject({ quantization: null, sources: { quantization: null } });
  });
});
