/**
 * Loading a GGUF file into a ready LlamaChat: the llama.cpp backend, the weights, one context.
 * Anything half-loaded is freed again when a later step fails.
 */
import type { Llama, LlamaChat, LlamaContext, LlamaModel } from 'node-llama-cpp';
import { InfraError, UsageError } from '../util/errors.js';
import type { NodeLlamaCpp } from './gguf-runtime.js';

export interface LoadOptions {
  modelPath: string;
  contextSize: number | undefined;
  threads: number | undefined;
  gpu: 'auto' | false;
}

export interface LoadedChat {
  llama: Llama;
  model: LlamaModel;
  context: LlamaContext;
  chat: LlamaChat;
  /** Threads the context evaluates with. */
  threads: number;
  loadMs: number;
}

/** Default cap on the context: "auto" alone would size it to the training context (often 128k) if memory allows. */
const MAX_AUTO_CONTEXT = 16384;

export async function loadChat(nlc: NodeLlamaCpp, o: LoadOptions): Promise<LoadedChat> {
  const started = performance.now();
  const recentLog: string[] = [];
  let llama: Llama;
  try {
    llama = await nlc.getLlama({
      gpu: o.gpu,
      // Never compile llama.cpp at run time: the prebuilt binaries work or the error says so.
      build: 'never',
      skipDownload: true,
      logLevel: nlc.LlamaLogLevel.error,
      // Kept, not printed: llama.cpp's own words go into the one-line error when loading fails.
      logger: (_level, message) => {
        const line = message.replace(/\s+/g, ' ').trim();
        if (line === '' || recentLog.includes(line)) return;
        recentLog.push(line);
        if (recentLog.length > 3) recentLog.shift();
      },
      ...(o.threads === undefined ? {} : { maxThreads: o.threads }),
    });
  } catch (err) {
    throw new InfraError(`node-llama-cpp has no working llama.cpp binary here: ${firstLine(err)}`, {
      cause: err,
    });
  }

  const threads = o.threads ?? llama.cpuMathCores;
  let model: LlamaModel | null = null;
  let context: LlamaContext | null = null;
  try {
    model = await llama.loadModel({ modelPath: o.modelPath });
    context = await model.createContext({ contextSize: o.contextSize ?? { max: MAX_AUTO_CONTEXT }, threads });
    const chat = new nlc.LlamaChat({ contextSequence: context.getSequence() });
    return { llama, model, context, chat, threads, loadMs: Math.round(performance.now() - started) };
  } catch (err) {
    await freeLoaded({ llama, model, context, chat: null });
    const said = recentLog.length === 0 ? '' : ` (llama.cpp: ${recentLog.join('; ')})`;
    throw new UsageError(`cannot load GGUF model ${o.modelPath}: ${firstLine(err)}${said}`, { cause: err });
  }
}

/** Frees in reverse order of loading. */
export async function freeLoaded(l: {
  llama: Llama;
  model: LlamaModel | null;
  context: LlamaContext | null;
  chat: LlamaChat | null;
}): Promise<void> {
  l.chat?.dispose();
  await l.context?.dispose();
  await l.model?.dispose();
  await l.llama.dispose();
}

export function firstLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n')[0] ?? message;
}
