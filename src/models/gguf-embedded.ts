/**
 * A ChatModel that runs a GGUF file in-process with node-llama-cpp, so a user with a model file and
 * no server can run the bench. node-llama-cpp's LlamaChat returns function calls without running
 * them; the agent loop executes them in the sandbox like any other backend's tool calls.
 */
import { InternalError, UsageError } from '../util/errors.js';
import { CallIdAllocator } from './call-ids.js';
import { generateReply } from './gguf-generate.js';
import { firstLine, freeLoaded, loadChat } from './gguf-load.js';
import { loadNodeLlamaCpp } from './gguf-runtime.js';
import { assertGgufFile } from './gguf-spec.js';
import { SpeedMeter } from './gguf-speed.js';
import type { Sampling } from './request-body.js';
import type { ChatModel } from './types.js';

export interface EmbeddedModelOptions {
  modelPath: string;
  /** Name recorded in results; defaults to `gguf:<file name>`. */
  name?: string;
  /** Tokens of context; default: what fits in memory, at most the training context and 16384. */
  contextSize?: number;
  /**
   * CPU threads; default: the machine's math cores. Tiny models run much faster on 1: with more
   * threads than free cores, llama.cpp's spinning threads wait on the scheduler at every barrier.
   */
  threads?: number;
  /** 'auto' (default) uses a GPU when node-llama-cpp finds one (Metal, CUDA, Vulkan). */
  gpu?: 'auto' | false;
  /** maxTokens defaults to DEFAULT_MAX_TOKENS. */
  sampling: Sampling;
}

interface EmbeddedModelInfo {
  modelPath: string;
  architecture: string | null;
  /** node-llama-cpp's chat wrapper, chosen from the model's chat template (e.g. "ChatML", "Qwen"). */
  chatWrapper: string;
  gpu: 'metal' | 'cuda' | 'vulkan' | false;
  contextSize: number;
  threads: number;
  /** Backend start, weights and context, in ms. */
  loadMs: number;
  /** Decode speed over every reply so far (prompt processing excluded); null before the first reply. */
  generationTokensPerSec: number | null;
  /** Prompt processing speed over every reply so far; null before the first evaluated prompt. */
  promptTokensPerSec: number | null;
}

export interface EmbeddedModel extends ChatModel {
  readonly info: EmbeddedModelInfo;
  /** Frees context, weights and the llama.cpp backend. Safe to call more than once. */
  dispose(): Promise<void>;
}

export async function createEmbeddedModel(options: EmbeddedModelOptions): Promise<EmbeddedModel> {
  validate(options);
  await assertGgufFile(options.modelPath);
  const nlc = await loadNodeLlamaCpp();
  const architecture = await readArchitecture(nlc.readGgufFileInfo, options.modelPath);
  const loaded = await loadChat(nlc, {
    modelPath: options.modelPath,
    contextSize: options.contextSize,
    threads: options.threads,
    gpu: options.gpu ?? 'auto',
  });
  const { chat } = loaded;
  const fixedInfo = {
    modelPath: options.modelPath,
    architecture,
    chatWrapper: chat.chatWrapper.wrapperName,
    gpu: loaded.llama.gpu,
    contextSize: loaded.context.contextSize,
    threads: loaded.threads,
    loadMs: loaded.loadMs,
  };
  const name = options.name ?? `gguf:${options.modelPath.split(/[\\/]/).at(-1) ?? options.modelPath}`;
  const ids = new CallIdAllocator();
  const speed = new SpeedMeter();
  let disposing: Promise<void> | null = null;
  // One reply at a time: the token meter deltas that become `usage` must not interleave.
  let queue: Promise<unknown> = Promise.resolve();

  return {
    name,
    get info(): EmbeddedModelInfo {
      return {
        ...fixedInfo,
        generationTokensPerSec: speed.generationTokensPerSec(),
        promptTokensPerSec: speed.promptTokensPerSec(),
      };
    },
    complete(messages, tools, signal) {
      if (disposing !== null) {
        return Promise.reject(new InternalError(`${name}: complete() called after dispose()`));
      }
      const run = queue.then(() =>
        generateReply({ chat, messages, tools, signal, sampling: options.sampling, ids, speed, name }),
      );
      queue = run.catch(() => {});
      return run;
    },
    dispose() {
      // A reply in progress finishes (or ends on its own signal) before its context is freed.
      disposing ??= queue.then(() => freeLoaded(loaded));
      return disposing;
    },
  };
}

async function readArchitecture(
  readGgufFileInfo: (path: string) => Promise<{ metadata: { general?: { architecture?: unknown } } }>,
  path: string,
): Promise<string | null> {
  try {
    const info = await readGgufFileInfo(path);
    const arch = info.metadata.general?.architecture;
    return typeof arch === 'string' ? arch : null;
  } catch (err) {
    throw new UsageError(`${path} is not a readable GGUF model: ${firstLine(err)}`, { cause: err });
  }
}

function validate(o: EmbeddedModelOptions): void {
  const positiveInt = (v: number | undefined): boolean => v === undefined || (Number.isInteger(v) && v > 0);
  if (!positiveInt(o.contextSize)) {
    throw new UsageError(`context size must be a whole number > 0, got ${o.contextSize}`);
  }
  if (!positiveInt(o.threads)) throw new UsageError(`threads must be a whole number > 0, got ${o.threads}`);
  if (!positiveInt(o.sampling.maxTokens)) {
    throw new UsageError(`max tokens must be a whole number > 0, got ${o.sampling.maxTokens}`);
  }
}
