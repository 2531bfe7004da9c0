/** Types for make-qwen-gguf.mjs, so TypeScript tests can find the models it makes. */
export type Quant = 'Q8_0' | 'Q6_K' | 'Q4_K_M' | 'Q2_K';
export const QUANTS: readonly Quant[];
/** The pieces of the one call the models write each turn (see the .mjs). */
export const CALL_PIECES: readonly string[];
export interface QwenModelOptions {
  /** PRNG seed of the random weights (default 1). */
  seed?: number;
  /** Default $AGENT_BENCH_CACHE, else ~/.cache/agent-bench. */
  cacheRoot?: string;
}
/** The folder the models for a provisioned llama.cpp folder go to. */
export function modelsDirFor(llamaDir: string, options?: QwenModelOptions): string;
/** `tiny-qwen2.5-79M-Q4_K_M.gguf` */
export function modelFileName(quant: Quant): string;
/** The four files in `dir` by quantization, or null when one is missing. */
export function findModels(dir: string): Record<Quant, string> | null;
/** Makes the four models unless they are there; returns their folder. */
export function makeQwenModels(
  llamaDir: string,
  options?: QwenModelOptions & { log?: (line: string) => void },
): string;
/** The pieces the runaway model writes: into a loop with no end token (see the .mjs). */
export const RUNAWAY_PIECES: readonly string[];
/** Where the runaway model (Q8_0, in a folder of its own) goes for a provisioned llama.cpp folder. */
export function runawayModelPath(llamaDir: string, options?: QwenModelOptions): string;
/** Makes the runaway model unless it is there; returns its path. */
export function makeRunawayModel(
  llamaDir: string,
  options?: QwenModelOptions & { log?: (line: string) => void },
): string;
