/**
 * `--model scripted-baseline`: a rule-following agent with no language model, run through the same
 * driver, tools and scoring as any model (OpsBench's non-LLM baseline). It is a row in every report:
 * a model that scores below it is not yet following the policy as well as a keyword script does.
 */
import { CallIdAllocator } from '../../models/call-ids.js';
import type { ChatModel, ModelReply } from '../../models/types.js';
import { SCRIPTED_DIALOGUE_BASELINE } from '../../results/baseline-models.js';
import { decide } from './decide.js';
import { readHistory } from './history.js';

export const BASELINE_MODEL = SCRIPTED_DIALOGUE_BASELINE;

export function createBaselineModel(): ChatModel {
  const ids = new CallIdAllocator();
  return {
    name: BASELINE_MODEL,
    async complete(messages, _tools, signal): Promise<ModelReply> {
      signal?.throwIfAborted();
      const turn = decide(readHistory(messages));
      return {
        text: turn.text ?? '',
        toolCalls: turn.calls.map((c) => ({
          id: ids.take(),
          name: c.name,
          rawArguments: JSON.stringify(c.arguments),
          arguments: c.arguments,
          source: 'native',
        })),
        usage: null,
        finishReason: turn.calls.length > 0 ? 'tool_calls' : 'stop',
        latencyMs: 0,
        retries: [],
        malformed: null,
      };
    },
  };
}
