/** The options `run` and `ladder` share: everything that changes a score, and how to reach a model. */

import type { ToolCallMode } from '../models/tool-call-mode.js';
import {
  CLEAN,
  CONDITION_NAMES,
  type ConditionName,
  conditionKey,
  DEFAULT_FAULT_TIMEOUT_SEC,
  type RunCondition,
} from '../results/condition.js';
import type { RunSettings } from '../results/result-file.js';
import type { ModelRequest } from '../run/resolve-model.js';
import { parseShard } from '../run/shard.js';
import { parseRunGroup, planShard, type ShardPlan } from '../run/shard-plan.js';
import type { VariantChoice } from '../run/trial-instances.js';
import type { Task } from '../tasks/types.js';
import { INSTANCE_ID } from '../tasks/variants/instance-seed.js';
import { UsageError } from '../util/errors.js';
import { adversarialCondition, type InjectionCliOptions } from './injection-options.js';

/** As commander parses them (camelCase of the flags; option-table/settings.ts declares them). */
export interface SettingsCliOptions {
  /** Applied by src/cli/main.ts before the command runs. */
  dockerHost?: string;
  k: number;
  /** `--variant-seed N` and `--variant ID` (variant tasks). */
  variantSeed: number;
  variant?: string;
  earlyStop: boolean;
  apiKeyEnv: string;
  resultsDir: string;
  maxTurns?: number;
  commandTimeout: number;
  requestTimeout: number;
  retries: number;
  resume: boolean;
  freshContainer: boolean;
  memory: number;
  pids: number;
  cpus: number;
  temperature: number;
  seed?: number;
  topP?: number;
  maxTokens?: number;
  /** `--shard i/N` and `--run-group NAME`. */
  shard?: string;
  runGroup?: string;
}

/** `toolCalls`: `run --tool-calls` (ladder measures both channels). */
export function runSettings(o: SettingsCliOptions & { toolCalls?: ToolCallMode }): RunSettings {
  const toolCalls = o.toolCalls ?? 'both';
  return {
    k: o.k,
    early_stop: o.earlyStop,
    max_turns: o.maxTurns ?? null,
    command_timeout_sec: o.commandTimeout,
    fresh_container: o.freshContainer,
    limits: { memory_mb: o.memory, pids: o.pids, cpus: o.cpus },
    sampling: {
      temperature: o.temperature,
      ...(o.seed === undefined ? {} : { seed: o.seed }),
      ...(o.topP === undefined ? {} : { top_p: o.topP }),
      ...(o.maxTokens === undefined ? {} : { max_tokens: o.maxTokens }),
    },
    ...(toolCalls === 'both' ? {} : { tool_calls: toolCalls }),
  };
}

/** How to talk to a model, without which one and where (the caller adds `model` and `baseUrl`). */
export function modelAccess(
  o: SettingsCliOptions,
  settings: RunSettings,
): Omit<ModelRequest, 'model' | 'baseUrl'> {
  return {
    apiKeyEnv: o.apiKeyEnv,
    sampling: settings.sampling,
    requestTimeoutMs: o.requestTimeout * 1000,
    retries: o.retries,
  };
}

/** `--conditions clean,noisy,adversarial` and `--failure-rate`, as the conditions a run runs under, in the order given. */
export function runConditions(
  o: { conditions: string; failureRate: number } & InjectionCliOptions,
): RunCondition[] {
  const names = o.conditions
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (names.length === 0)
    throw new UsageError('--conditions needs at least one of clean, noisy, adversarial');
  const unknown = names.filter((n) => !(CONDITION_NAMES as readonly string[]).includes(n));
  if (unknown.length > 0)
    throw new UsageError(
      `--conditions: unknown condition ${unknown.map((n) => JSON.stringify(n)).join(', ')} (choose from ${CONDITION_NAMES.join(', ')})`,
    );
  return [...new Set(names as ConditionName[])].map((name): RunCondition => {
    if (name === 'noisy')
      return { name, failure_rate: o.failureRate, fault_timeout_sec: DEFAULT_FAULT_TIMEOUT_SEC };
    return name === 'adversarial' ? adversarialCondition(o) : { name };
  });
}

/** `--variant-seed` and `--variant`: how variant tasks draw their trials' instances. */
export function variantChoice(o: SettingsCliOptions): VariantChoice {
  if (o.variant !== undefined && !INSTANCE_ID.test(o.variant))
    throw new UsageError(
      `--variant ${JSON.stringify(o.variant)}: an instance id is letters, digits, _ and - (a trial's "variant")`,
    );
  return { seed: o.variantSeed, ...(o.variant === undefined ? {} : { replay: o.variant }) };
}

/** `--shard i/N` (and `--run-group`) as this machine's share of the tasks' trials; undefined: all of them. */
export function shardPlan(
  o: SettingsCliOptions,
  tasks: readonly Task[],
  settings: RunSettings,
  conditions: readonly RunCondition[] = [CLEAN],
  variants?: VariantChoice,
): ShardPlan | undefined {
  if (o.shard === undefined) {
    if (o.runGroup !== undefined)
      throw new UsageError('--run-group names the run its shards share: it goes with --shard i/N');
    return undefined;
  }
  const spec = parseShard(o.shard);
  return planShard({
    spec,
    tasks,
    settings,
    conditions: conditions.map(conditionKey),
    ...(variants === undefined ? {} : { variants }),
    ...(o.runGroup === undefined ? {} : { group: parseRunGroup(o.runGroup) }),
  });
}
