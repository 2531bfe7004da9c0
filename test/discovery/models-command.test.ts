import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { modelsCommand } from '../../src/cli/commands/models.js';
import { InfraError } from '../../src/util/errors.js';
import { gguf, writeGguf } from '../helpers/gguf-writer.js';
import { type FakeServer, lmStudioV0Routes, ollamaRoutes, startFakeServer } from './fake-servers.js';

const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function run(o: Parameters<typeof modelsCommand>[0]): Promise<string> {
  const out: string[] = [];
  await modelsCommand({ timeoutMs: 1000, ...o, write: (t) => void out.push(t) });
  return out.join('');
}

describe('agent-bench models', () => {
  it('prints a table with parameters, quantization, size, context, tools and sources, smallest first', async () => {
    const s = await startFakeServer(ollamaRoutes());
    servers.push(s);
    const out = await run({ baseUrl: s.url });
    const lines = out.split('\n');
    expect(lines[0]).toBe(`ollama at ${s.url}`);
    expect(lines[1]).toMatch(/^ {2}NAME\s+PARAMS\s+QUANT\s+SIZE\s+MAX CONTEXT\s+TOOLS\s+SOURCES$/);
    expect(lines[2]).toMatch(
      /^ {2}gemma3:270m\s+268M\s+Q8_0\s+0\.3 GiB\s+32768\s+no\s+p:server q:server w:server c:server$/,
    );
    expect(lines[3]).toMatch(/^ {2}qwen3:8b\s+8\.2B\s+Q4_K_M\s+4\.9 GiB\s+40960\s+yes/);
    expect(out).toContain('? = unknown');
    expect(out.match(/\? = unknown/g)).toHaveLength(1);
  });

  it('marks estimates and unknowns instead of guessing', async () => {
    const s = await startFakeServer(lmStudioV0Routes());
    servers.push(s);
    const out = await run({ baseUrl: `${s.url}/v1` });
    expect(out).toMatch(
      /meta-llama-3\.1-8b-instruct\s+8B\s+Q4_K_M\s+~4\.6 GiB\s+131072\s+yes\s+p:name q:server w:estimate c:server/,
    );
    expect(out).toMatch(/qwen2-vl-7b-instruct\s+7B\s+4BIT\s+~3\.7 GiB\s+32768\s+\?/);
  });

  it('--json prints the discovered models', async () => {
    const s = await startFakeServer(ollamaRoutes());
    servers.push(s);
    const parsed = JSON.parse(await run({ baseUrl: s.url, json: true })) as {
      source: string;
      models: { name: string }[];
    }[];
    expect(parsed[0]?.models.map((m) => m.name)).toEqual(['gemma3:270m', 'qwen3:8b']);
  });

  it('lists GGUF files from a folder', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'models-cmd-'));
    try {
      await writeGguf(join(dir, 'SmolLM2-135M-Instruct-Q8_0.gguf'), {
        kv: [
          ['general.architecture', gguf.str('llama')],
          ['general.file_type', gguf.u32(7)],
          ['llama.context_length', gguf.u32(8192)],
        ],
        tensors: [{ name: 'w', dims: [16, 16] }],
      });
      const out = await run({ ggufDir: dir });
      expect(out).toMatch(
        /SmolLM2-135M-Instruct-Q8_0\.gguf\s+256\s+Q8_0\s+\d+ KiB\s+8192\s+\?\s+p:file q:file w:file c:file/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('probes the local ports itself and says plainly when nothing answers', async () => {
    const s = await startFakeServer(ollamaRoutes());
    servers.push(s);
    expect(await run({ ports: [s.port] })).toContain(`ollama at http://127.0.0.1:${s.port}/v1`);
    const closed = await startFakeServer({});
    await closed.close();
    await expect(run({ ports: [closed.port] })).rejects.toThrow(InfraError);
    await expect(run({ ports: [closed.port] })).rejects.toThrow(/no model server answers on 127\.0\.0\.1/);
  });
});
