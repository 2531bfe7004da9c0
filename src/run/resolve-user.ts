/**
 * The models beside the agent's: the one that plays the simulated user of dialogue tasks
 * (`--user-model`, `--user-base-url`), recorded with its settings in every dialogue trial since it
 * changes what is measured, and the transcript judge (`--judge-model`, `--judge-base-url`), recorded
 * in each grade it gives. Each is checked on its server before any trial, like the agent's model.
 */
import { unlistedModel } from '../discovery/pre-run.js';
import type { TranscriptJudge } from '../judge/grade.js';
import { createOpenAICompatibleModel } from '../models/openai-compatible.js';
import { checkServer } from '../models/probe.js';
import type { ChatModel } from '../models/types.js';
import type { DialogueUserChoice } from '../tasks/types.js';
import { InfraError } from '../util/errors.js';
import { redactUrl } from '../util/redact-url.js';
import type { ModelRequest } from './resolve-model.js';

export type UserModelRequest = Omit<ModelRequest, 'model' | 'baseUrl'> & { model: string; baseUrl: string };

export async function resolveUserModel(req: UserModelRequest): Promise<DialogueUserChoice> {
  const makeModel = await helperModel(req, '--user-model');
  const { sampling } = req;
  return {
    kind: 'llm',
    makeModel,
    record: {
      kind: 'llm',
      model: req.model,
      base_url: redactUrl(req.baseUrl),
      temperature: sampling.temperature,
      ...(sampling.seed === undefined ? {} : { seed: sampling.seed }),
    },
  };
}

/**
 * A model beside the agent's (the simulated user's, the judge's), checked on its server before any
 * trial like the agent's model, and its client maker, one client per use. `flag` names it in errors.
 */
async function helperModel(req: UserModelRequest, flag: string): Promise<() => ChatModel> {
  const listed = await checkServer(req.baseUrl, { apiKeyEnv: req.apiKeyEnv });
  const unlisted = unlistedModel(req.model, listed, redactUrl(req.baseUrl));
  if (unlisted !== null) throw new InfraError(`${flag}: ${unlisted}`);
  const { sampling } = req;
  const makeModel = () =>
    createOpenAICompatibleModel({
      baseUrl: req.baseUrl,
      model: req.model,
      apiKeyEnv: req.apiKeyEnv,
      sampling: {
        temperature: sampling.temperature,
        ...(sampling.seed === undefined ? {} : { seed: sampling.seed }),
        ...(sampling.top_p === undefined ? {} : { topP: sampling.top_p }),
        ...(sampling.max_tokens === undefined ? {} : { maxTokens: sampling.max_tokens }),
      },
      requestTimeoutMs: req.requestTimeoutMs,
      maxRetries: req.retries,
    });
  // Made once here, so bad options fail before any trial.
  makeModel();
  return makeModel;
}

/** `--judge-model` on its server: the transcript judge (src/judge/grade.ts). */
export async function resolveJudgeModel(req: UserModelRequest): Promise<TranscriptJudge> {
  return {
    model: req.model,
    baseUrl: redactUrl(req.baseUrl),
    makeModel: await helperModel(req, '--judge-model'),
  };
}
