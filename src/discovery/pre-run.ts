/** What to tell the user before a run about the server, and what to record about it in each result. */
import type { ServerDetails } from './types.js';

/**
 * A default for `preRunWarnings` when the suite states no need of its own: a system prompt with three
 * tool specs plus a dozen turns whose tool output is capped at 8000 + 4000 characters fits in 16k tokens.
 */
export const DEFAULT_REQUIRED_CONTEXT = 16_384;

/**
 * Why the run must not start with this model: the server does not list it (a request for it would be
 * a 404 on every trial), or null. Ollama answers to a name without its `:latest` tag too.
 */
export function unlistedModel(requested: string, listed: readonly string[], where: string): string | null {
  if (listed.includes(requested) || listed.includes(`${requested}:latest`)) return null;
  const offer = listed.length === 0 ? 'it lists none' : `it lists: ${listed.join(', ')}`;
  return `the model server at ${where} does not list the model "${requested}" (${offer}); pass one of those to --model`;
}

/** One line per problem the user should know about before the run starts (empty when none). */
export function preRunWarnings(
  details: ServerDetails,
  requiredContext: number = DEFAULT_REQUIRED_CONTEXT,
): string[] {
  const warnings: string[] = [];
  const ctx = details.contextLength;
  if (ctx !== null && ctx < requiredContext) {
    const trained =
      details.trainedContextLength === null ? '' : ` (the model supports ${details.trainedContextLength})`;
    warnings.push(
      `the server gives the model a context of ${ctx} tokens${trained}, less than the ${requiredContext} the suite needs: ` +
        `long trials will be cut off. ${CONTEXT_FIX[details.kind]}`,
    );
  } else if (ctx === null) {
    warnings.push(
      `the server does not say its context length; make sure it is at least ${requiredContext} tokens. ${CONTEXT_FIX[details.kind]}`,
    );
  }
  if (details.toolSupport === false) {
    warnings.push(
      "the model's chat template has no tool support: tool calls will be parsed from the reply text " +
        '(the text-format parser carries the run; results count them as text_tool_calls)',
    );
  }
  return warnings;
}

const CONTEXT_FIX: Readonly<Record<ServerDetails['kind'], string>> = {
  'llama-server': 'Restart llama-server with a larger -c (the context is split across --parallel slots).',
  ollama: "Set OLLAMA_CONTEXT_LENGTH for the Ollama server, or num_ctx in the model's Modelfile.",
  lmstudio: 'Load the model in LM Studio with a larger context length.',
  'openai-compatible': "Check the server's maximum context setting.",
};

/** The server as recorded in a result's `environment.server` (snake_case: the results-file contract). */
export function environmentServer(d: ServerDetails): {
  kind: string;
  version: string | null;
  context_length: number | null;
  parallel_slots: number | null;
  tool_support: boolean | null;
} {
  return {
    kind: d.kind,
    version: d.version,
    context_length: d.contextLength,
    parallel_slots: d.parallelSlots,
    tool_support: d.toolSupport,
  };
}
