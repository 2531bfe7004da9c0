/** Types for make-tiny-gguf.mjs, so TypeScript tests can call it. */
export interface TinyGgufOptions {
  /** PRNG seed of the random weights (default 1); same seed, same bytes. */
  seed?: number;
  /** 'babble' (default): random noise; 'tool-call': calls execute_command {"command": "ls"} every turn. */
  mode?: 'babble' | 'tool-call';
}
export function buildTinyGguf(options?: TinyGgufOptions): Buffer;
/** Writes the model to `outPath` and returns its size in bytes. */
export function writeTinyGguf(outPath: string, options?: TinyGgufOptions): number;
