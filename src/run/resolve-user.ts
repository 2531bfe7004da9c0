/**
 * The model that plays the simulated user of dialogue tasks (`--user-model`, `--user-base-url`):
 * checked on its server before any trial, like the agent's model, then one client per trial. It is
 * recorded with its settings in every dialogue trial, since it changes what is measured.
 */
import { unlistedModel } from '../discovery/pre-run.js';
import { createOpenAICompatibleModel } from '../models/openai-compatible.js';
import { checkServer } from '../models/probe.js';
import type { DialogueUserChoice } from '../tasks/types.js';
import { InfraError } from '../util/errors.js';
import { redactUrl } from '../util/redact-url.js';
import type { ModelRequest } from './resolve-model.js';

export type UserModelRequest = Omit<ModelRequest, 'model' | 'baseUrl'> & { model: string; baseUrl: string };

export async function resolveUserModel(req: UserModelRequest): Promise<DialogueUserChoice> {
  const listed = await checkServer(req.baseUrl, { apiKeyEnv: req.apiKeyEnv });
  const unlisted = unlistedModel(req.model, listed, redactUrl(req.baseUrl));
  if (unlisted !== null) throw new InfraError(`--user-model: ${unlisted}`);
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
