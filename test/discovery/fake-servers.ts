/**
 * Tiny fake model servers on 127.0.0.1 answering with the JSON shapes Ollama, LM Studio and
 * llama-server document (values taken from real models). Any route not given answers 404.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Reply = { status?: number; json?: unknown; text?: string; hang?: boolean };
export type Routes = Record<string, Reply | ((body: unknown) => Reply)>;

export interface FakeServer {
  /** http://127.0.0.1:PORT (no /v1). */
  url: string;
  port: number;
  /** "METHOD /path" of every request, in order. */
  hits: string[];
  close(): Promise<void>;
}

export async function startFakeServer(routes: Routes): Promise<FakeServer> {
  const hits: string[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => {
      raw += chunk.toString('utf8');
    });
    req.on('end', () => {
      const key = `${req.method} ${req.url?.split('?')[0]}`;
      hits.push(key);
      const route = routes[key];
      const reply =
        typeof route === 'function'
          ? route(raw === '' ? null : JSON.parse(raw))
          : (route ?? { status: 404, json: { error: 'not found' } });
      if (reply.hang === true) {
        hanging.add(res);
        return;
      }
      res.writeHead(reply.status ?? 200, {
        'content-type': reply.text === undefined ? 'application/json' : 'text/html',
      });
      res.end(reply.text ?? JSON.stringify(reply.json ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const QWEN3_DETAILS = {
  parent_model: '',
  format: 'gguf',
  family: 'qwen3',
  families: ['qwen3'],
  parameter_size: '8.2B',
  quantization_level: 'Q4_K_M',
};

export function ollamaRoutes(o: { loadedContext?: number; showFails?: boolean } = {}): Routes {
  const shows: Record<string, unknown> = {
    'qwen3:8b': {
      parameters: 'num_ctx 8192\ntemperature 0.6',
      details: QWEN3_DETAILS,
      model_info: {
        'general.architecture': 'qwen3',
        'general.parameter_count': 8_190_735_360,
        'qwen3.context_length': 40_960,
      },
      capabilities: ['completion', 'tools', 'thinking'],
    },
    'gemma3:270m': {
      details: { family: 'gemma3', parameter_size: '268.10M', quantization_level: 'Q8_0' },
      model_info: { 'general.architecture': 'gemma3', 'gemma3.context_length': 32_768 },
      capabilities: ['completion'],
    },
    'nomic-embed-text:latest': { details: { family: 'nomic-bert' }, capabilities: ['embedding'] },
  };
  return {
    'GET /api/version': { json: { version: '0.12.3' } },
    'GET /api/tags': {
      json: {
        models: [
          { name: 'qwen3:8b', model: 'qwen3:8b', size: 5_225_388_164, digest: 'abc', details: QWEN3_DETAILS },
          {
            name: 'gemma3:270m',
            model: 'gemma3:270m',
            size: 291_554_930,
            details: { family: 'gemma3', parameter_size: '268.10M', quantization_level: 'Q8_0' },
          },
          {
            name: 'nomic-embed-text:latest',
            size: 274_302_450,
            details: { family: 'nomic-bert', parameter_size: '137M' },
          },
        ],
      },
    },
    'POST /api/show': (body) => {
      const model = (body as { model?: string } | null)?.model ?? '';
      if (o.showFails === true) return { status: 500, json: { error: 'boom' } };
      const show = shows[model];
      return show === undefined
        ? { status: 404, json: { error: `model '${model}' not found` } }
        : { json: show };
    },
    'GET /api/ps': {
      json: {
        models:
          o.loadedContext === undefined
            ? []
            : [{ name: 'qwen3:8b', model: 'qwen3:8b', context_length: o.loadedContext }],
      },
    },
    'GET /v1/models': {
      json: { object: 'list', data: [{ id: 'qwen3:8b', object: 'model', owned_by: 'library' }] },
    },
  };
}

export function lmStudioV1Routes(): Routes {
  return {
    'GET /api/v1/models': {
      json: {
        models: [
          {
            type: 'llm',
            publisher: 'lmstudio-community',
            key: 'gemma-3-270m-it-qat',
            display_name: 'Gemma 3 270m Instruct Qat',
            architecture: 'gemma3',
            quantization: { name: 'Q4_0', bits_per_weight: 4 },
            size_bytes: 241_410_208,
            params_string: '270M',
            loaded_instances: [{ id: 'gemma-3-270m-it-qat', config: { context_length: 4096 } }],
            max_context_length: 32_768,
            format: 'gguf',
            capabilities: { vision: false, trained_for_tool_use: false },
          },
          {
            type: 'embedding',
            key: 'text-embedding-nomic-embed-text-v1.5',
            quantization: { name: 'F16', bits_per_weight: 16 },
            size_bytes: 274_290_560,
            params_string: null,
            loaded_instances: [],
            max_context_length: 2048,
          },
        ],
      },
    },
    'GET /v1/models': { json: { data: [{ id: 'gemma-3-270m-it-qat' }] } },
  };
}

export function lmStudioV0Routes(): Routes {
  return {
    'GET /api/v0/models': {
      json: {
        object: 'list',
        data: [
          {
            id: 'meta-llama-3.1-8b-instruct',
            object: 'model',
            type: 'llm',
            publisher: 'lmstudio-community',
            arch: 'llama',
            compatibility_type: 'gguf',
            quantization: 'Q4_K_M',
            state: 'loaded',
            max_context_length: 131_072,
            loaded_context_length: 8192,
            capabilities: ['tool_use'],
          },
          {
            id: 'qwen2-vl-7b-instruct',
            type: 'vlm',
            arch: 'qwen2_vl',
            compatibility_type: 'mlx',
            quantization: '4bit',
            state: 'not-loaded',
            max_context_length: 32_768,
          },
          {
            id: 'text-embedding-nomic-embed-text-v1.5',
            type: 'embeddings',
            arch: 'nomic-bert',
            quantization: 'Q4_0',
          },
        ],
      },
    },
  };
}

export function llamaServerRoutes(
  o: { modelPath?: string; toolCalls?: boolean; caps?: boolean } = {},
): Routes {
  return {
    'GET /props': {
      json: {
        build_info: 'b6100-2b1a8f3c',
        model_path: o.modelPath ?? '/nonexistent/model.gguf',
        total_slots: 4,
        default_generation_settings: { n_ctx: 8192, temperature: 0.8 },
        chat_template: '{% for m in messages %}{{ m.content }}{% endfor %}',
        ...(o.caps === false
          ? {}
          : {
              chat_template_caps: {
                supports_tools: o.toolCalls ?? true,
                supports_tool_calls: o.toolCalls ?? true,
              },
            }),
      },
    },
    'GET /v1/models': {
      json: {
        object: 'list',
        data: [
          {
            id: 'Qwen3-4B',
            object: 'model',
            owned_by: 'llamacpp',
            meta: {
              vocab_type: 2,
              n_vocab: 151_936,
              n_ctx_train: 40_960,
              n_embd: 2560,
              n_params: 4_022_468_096,
              size: 2_497_280_256,
            },
          },
        ],
      },
    },
  };
}

export function genericRoutes(): Routes {
  return {
    'GET /v1/models': {
      json: {
        object: 'list',
        data: [
          { id: 'Qwen/Qwen3-8B-FP8', object: 'model', max_model_len: 32_768 },
          { id: 'Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf', object: 'model' },
        ],
      },
    },
  };
}
