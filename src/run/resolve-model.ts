/**
 * Which model a run talks to. An explicit --model/--base-url wins; otherwise the usual local servers
 * are probed; with none answering, the built-in reference agent (oracle) runs, and the user is told.
 */

import { baselineModel, baselineOf } from '../agent/baselines.js';
import { BASELINE_MODEL, createBaselineModel } from '../dialogue/baseline/baseline-model.js';
import { environmentServer, preRunWarnings, unlistedModel } from '../discovery/pre-run.js';
import { describeServerDetails } from '../discovery/servers.js';
import { createEmbeddedModel } from '../models/gguf-embedded.js';
import { isGgufModelSpec, parseGgufModelSpec } from '../models/gguf-spec.js';
import { createOpenAICompatibleModel } from '../models/openai-compatible.js';
import { checkServer, probeLocalServers } from '../models/probe.js';
import { createScriptedModel } from '../models/scripted.js';
import { withToolCallMode } from '../models/tool-call-mode.js';
import type { ChatModel } from '../models/types.js';
import type { EnvironmentServer, Sampling } from '../results/result-file.js';
import type { Task } from '../tasks/types.js';
import { errorMessage, InfraError } from '../util/errors.js';
import { redactUrl } from '../util/redact-url.js';

const ORACLE_MODEL = 'oracle';

export interface ModelRequest {
  model?: string;
  baseUrl?: string;
  apiKeyEnv: string;
  sampling: Sampling;
  requestTimeoutMs: number;
  retries: number;
  /** `run --tool-calls` when not both: the channel the model's tool calls are read from (tool-call-mode.ts). */
  toolCalls?: 'native' | 'text';
}

export interface ResolvedModel {
  name: string;
  baseUrl: string | null;
  server: EnvironmentServer | null;
  /** Said before the run: context too small, no tool support in the template... */
  warnings: string[];
  /** A fresh model for one trial (the index) of a task. */
  forTrial(task: Task, trialIndex: number): ChatModel;
  /** Said to the user before the run (e.g. why the oracle runs). */
  notice: string | null;
  /** Frees what the model holds (an in-process GGUF model's weights). Idempotent. */
  dispose(): Promise<void>;
}

export async function resolveModel(req: ModelRequest): Promise<ResolvedModel> {
  const resolved = await resolveAnyModel(req);
  const mode = req.toolCalls;
  if (mode === undefined) return resolved;
  return { ...resolved, forTrial: (task, trial) => withToolCallMode(resolved.forTrial(task, trial), mode) };
}

async function resolveAnyModel(req: ModelRequest): Promise<ResolvedModel> {
  const builtin = builtInModel(req);
  if (builtin === null) return serverModel(req);
  // A built-in agent asks no server: say so rather than leave the user thinking the URL was used.
  if (req.baseUrl === undefined) return builtin;
  return {
    ...builtin,
    notice: `--base-url ${redactUrl(req.baseUrl)} is ignored: --model ${builtin.name} asks no model server.`,
  };
}

/** The agents built into agent-bench (no server), or null when the request names none. */
function builtInModel(req: ModelRequest): ResolvedModel | null {
  if (req.model === ORACLE_MODEL) return oracle(null);
  // The rule-following non-LLM agent of dialogue tasks (src/dialogue/baseline/): no server either.
  if (req.model === BASELINE_MODEL)
    return { ...oracle(null), name: BASELINE_MODEL, forTrial: () => createBaselineModel() };
  const baseline = req.model === undefined ? null : baselineOf(req.model);
  if (baseline !== null) {
    // A scripted agent of the operational axes (agent/baselines.ts): no server, like the oracle.
    return {
      ...oracle(null),
      name: `baseline:${baseline}`,
      forTrial: (task, trial) => baselineModel(baseline, task, trial),
    };
  }
  return null;
}

async function serverModel(req: ModelRequest): Promise<ResolvedModel> {
  if (req.model !== undefined && isGgufModelSpec(req.model)) return embedded(req.model, req.sampling);

  const found = req.baseUrl === undefined ? await probeLocalServers({ timeoutMs: 700 }) : null;
  if (req.baseUrl === undefined && found === null) {
    if (req.model !== undefined) {
      throw new InfraError(
        'no model server answers on 127.0.0.1 (llama-server :8080, Ollama :11434, LM Studio :1234): start one or pass --base-url',
      );
    }
    return oracle(
      "No model server found on 127.0.0.1 (llama-server :8080, Ollama :11434, LM Studio :1234): running the built-in reference agent (--model oracle), which replays each task's reference solution through the real sandbox. Pass --model and --base-url to bench a model.",
    );
  }
  const url = req.baseUrl ?? found?.baseUrl ?? '';
  const models =
    req.baseUrl !== undefined
      ? await checkServer(req.baseUrl, { apiKeyEnv: req.apiKeyEnv })
      : (found?.models ?? []);
  const name = req.model ?? models[0];
  if (name === undefined)
    throw new InfraError(`the model server at ${redactUrl(url)} lists no models: load one or pass --model`);
  // Checked before any trial: otherwise every trial would end in a 404.
  const unlisted = req.model === undefined ? null : unlistedModel(req.model, models, redactUrl(url));
  if (unlisted !== null) throw new InfraError(unlisted);
  let server: EnvironmentServer | null = null;
  let warnings: string[];
  try {
    const details = await describeServerDetails(url, name);
    server = environmentServer(details);
    warnings = preRunWarnings(details);
  } catch (err) {
    warnings = [`could not learn the server's context length and tool support: ${errorMessage(err)}`];
  }
  // One client per trial: trials may run at once (--parallel), and nothing of one (its call ids)
  // should depend on another. Made once here too, so bad options fail before any trial.
  const makeModel = (): ChatModel =>
    createOpenAICompatibleModel({
      baseUrl: url,
      model: name,
      apiKeyEnv: req.apiKeyEnv,
      sampling: {
        temperature: req.sampling.temperature,
        ...(req.sampling.seed === undefined ? {} : { seed: req.sampling.seed }),
        ...(req.sampling.top_p === undefined ? {} : { topP: req.sampling.top_p }),
        ...(req.sampling.max_tokens === undefined ? {} : { maxTokens: req.sampling.max_tokens }),
      },
      requestTimeoutMs: req.requestTimeoutMs,
      maxRetries: req.retries,
      contextLength: server?.context_length ?? null,
    });
  makeModel();
  return {
    name,
    baseUrl: url,
    server,
    warnings,
    forTrial: makeModel,
    notice:
      req.model === undefined
        ? `Using model ${name} from ${redactUrl(url)} (pass --model to choose another).`
        : null,
    dispose: async () => {},
  };
}

/** `--model gguf:/path/model.gguf`: the model runs in-process through node-llama-cpp. */
async function embedded(spec: string, s: Sampling): Promise<ResolvedModel> {
  const model = await createEmbeddedModel({
    modelPath: parseGgufModelSpec(spec),
    sampling: {
      temperature: s.temperature,
      ...(s.seed === undefined ? {} : { seed: s.seed }),
      ...(s.top_p === undefined ? {} : { topP: s.top_p }),
      ...(s.max_tokens === undefined ? {} : { maxTokens: s.max_tokens }),
    },
  });
  return {
    name: model.name,
    baseUrl: null,
    server: {
      kind: 'embedded',
      version: 'node-llama-cpp',
      context_length: model.info.contextSize ?? null,
      parallel_slots: 1,
      tool_support: true,
    },
    warnings: [],
    forTrial: () => model,
    notice: `Loaded ${model.name} in-process (${model.info.architecture ?? 'unknown architecture'}, ${model.info.chatWrapper ?? 'default'} chat wrapper).`,
    dispose: () => model.dispose(),
  };
}

function oracle(notice: string | null): ResolvedModel {
  return {
    name: ORACLE_MODEL,
    baseUrl: null,
    server: null,
    warnings: [],
    forTrial: (task) => createScriptedModel(ORACLE_MODEL, task.referenceSolution, { reference: true }),
    notice,
    dispose: async () => {},
  };
}
