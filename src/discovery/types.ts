/** What discovery finds out about servers and models. A value nobody reported is null, never a guess. */
import type { ServerInfo } from '../models/types.js';

/** The HTTP servers discovery can talk to (the embedded backend has no server). */
export type ServerKind = Exclude<ServerInfo['kind'], 'builtin' | 'embedded'>;

/** Where a value came from: the server's API, a GGUF file header, the model's name, or arithmetic. */
export type ValueSource = 'server' | 'file' | 'name' | 'estimate';

export type WeightSource = 'server' | 'file' | 'estimate';

export interface DiscoveredModel {
  /** The name to pass as --model (for a GGUF file: its path). */
  name: string;
  kind: ServerKind | 'gguf-file';
  family: string | null;
  /** Total parameters in billions (every expert of a MoE model counts). */
  parameters: number | null;
  /** Parameters active per token in billions (MoE, e.g. `30b-a3b`). */
  activeParameters: number | null;
  /** Gemma-3n style "effective" size in billions (`e4b`). */
  effectiveParameters: number | null;
  /** Normalised quantization name, e.g. `Q4_K_M`, `F16`, `MXFP4`. */
  quantization: string | null;
  weightBytes: number | null;
  weightSource: WeightSource | null;
  /** The longest context the model supports (its training context), not what a server was started with. */
  contextLength: number | null;
  /** Whether the model's chat template takes tools, when the server says. */
  toolSupport: boolean | null;
  sources: {
    parameters: ValueSource | null;
    quantization: ValueSource | null;
    contextLength: ValueSource | null;
  };
}

/** What a server says about itself and the model it serves: recorded in each result's environment. */
export interface ServerDetails {
  kind: ServerKind;
  /** The OpenAI-compatible base URL runs use (`…/v1`). */
  baseUrl: string;
  /** Ollama's version, llama-server's build_info; null when the server does not say. */
  version: string | null;
  /** Context a request actually gets (llama-server: per slot; Ollama: the loaded or configured num_ctx). */
  contextLength: number | null;
  /** The model's training context, for the message when the served context is smaller. */
  trainedContextLength: number | null;
  parallelSlots: number | null;
  /** false: the chat template has no tool support, so tool calls must be parsed from the reply text. */
  toolSupport: boolean | null;
}

/** ServerDetails as one server kind's module reports them (the caller adds the URL). */
export type ServerFacts = Omit<ServerDetails, 'baseUrl'>;
