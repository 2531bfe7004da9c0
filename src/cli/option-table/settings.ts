/** The options `run` and `ladder` share word for word (run-options.ts reads them), in help's order. */
import { DEFAULT_REPLY_TOKENS } from '../../models/reply-bound.js';
import { DEFAULT_COMMAND_TIMEOUT_SEC, DEFAULT_LIMITS } from '../../run/settings.js';
import { DEFAULT_VARIANT_SEED } from '../../tasks/variants/instance-seed.js';
import { DOCKER_HOST_HELP } from '../register/options.js';
import type { SettingsCliOptions } from '../run-options.js';
import { atLeast, integer, SWITCH, TEXT } from './rules.js';
import type { OptionsTable } from './spec.js';

const BOTH = ['run', 'ladder'] as const;

export const SETTINGS_OPTIONS = {
  dockerHost: {
    flag: '--docker-host',
    value: 'url',
    description: DOCKER_HOST_HELP,
    rule: TEXT,
    commands: BOTH,
  },
  k: {
    flag: '-k, --k',
    value: 'n',
    description: 'trials per task',
    default: 1,
    rule: integer(1),
    commands: BOTH,
  },
  variantSeed: {
    flag: '--variant-seed',
    value: 'n',
    description:
      'variant tasks (a [variants] generator): trial i runs the instance drawn from the task, this seed and i, the same on every machine; apart from --seed, which the model server samples with',
    default: DEFAULT_VARIANT_SEED,
    rule: integer(0),
    commands: BOTH,
  },
  variant: {
    flag: '--variant',
    value: 'id',
    description:
      'variant tasks: every trial runs this one instance (a trial\'s `variant` in results), to replay a failure; "folder": the instance the task\'s folder holds',
    rule: TEXT,
    commands: BOTH,
  },
  earlyStop: {
    flag: '--early-stop',
    description: 'end a task at its first failed trial (one failure decides pass^k)',
    default: false,
    rule: SWITCH,
    commands: BOTH,
  },
  apiKeyEnv: {
    flag: '--api-key-env',
    value: 'var',
    description: 'environment variable holding the API key',
    default: 'AGENT_BENCH_API_KEY',
    rule: TEXT,
    commands: BOTH,
  },
  resultsDir: {
    flag: '--results-dir',
    value: 'dir',
    description: 'where results files go',
    default: 'results',
    rule: TEXT,
    commands: BOTH,
  },
  maxTurns: {
    flag: '--max-turns',
    value: 'n',
    description: "override every task's max turns (marks the run non-comparable)",
    rule: integer(1),
    commands: BOTH,
  },
  commandTimeout: {
    flag: '--command-timeout',
    value: 'sec',
    description: 'timeout of one shell command',
    default: DEFAULT_COMMAND_TIMEOUT_SEC,
    rule: atLeast(1),
    commands: BOTH,
  },
  requestTimeout: {
    flag: '--request-timeout',
    value: 'sec',
    description:
      'the only bound on one model request, reply included; a model that misses it while its server answers fails the trial (request_timeout)',
    default: 600,
    rule: atLeast(1),
    commands: BOTH,
  },
  retries: {
    flag: '--retries',
    value: 'n',
    description: 'retries of a failed model request (connection errors, 5xx, 429)',
    default: 3,
    rule: integer(0),
    commands: BOTH,
  },
  resume: {
    flag: '--resume',
    description: 'continue unfinished results files of the same task and model',
    default: false,
    rule: SWITCH,
    commands: BOTH,
  },
  freshContainer: {
    flag: '--fresh-container',
    description: 'one container per trial instead of one per task',
    default: false,
    rule: SWITCH,
    commands: BOTH,
  },
  memory: {
    flag: '--memory',
    value: 'mb',
    description: 'sandbox memory limit in MiB',
    default: DEFAULT_LIMITS.memory_mb,
    rule: integer(64),
    commands: BOTH,
  },
  pids: {
    flag: '--pids',
    value: 'n',
    description: 'sandbox process limit',
    default: DEFAULT_LIMITS.pids,
    rule: integer(16),
    commands: BOTH,
  },
  cpus: {
    flag: '--cpus',
    value: 'n',
    description: 'sandbox CPU limit',
    default: DEFAULT_LIMITS.cpus,
    rule: atLeast(0.1),
    commands: BOTH,
  },
  temperature: {
    flag: '--temperature',
    value: 't',
    description: 'sampling temperature',
    default: 0,
    rule: atLeast(0),
    commands: BOTH,
  },
  seed: { flag: '--seed', value: 'n', description: 'sampling seed', rule: integer(0), commands: BOTH },
  topP: { flag: '--top-p', value: 'p', description: 'nucleus sampling', rule: atLeast(0), commands: BOTH },
  maxTokens: {
    flag: '--max-tokens',
    value: 'n',
    description: `max tokens per reply (default: what the server's context leaves after the prompt, at most ${DEFAULT_REPLY_TOKENS})`,
    rule: integer(1),
    commands: BOTH,
  },
  shard: {
    flag: '--shard',
    value: 'i/N',
    description:
      'run shard i of N: a fixed share of the trials, so N machines split one run (join them with results merge)',
    rule: TEXT,
    commands: BOTH,
  },
  runGroup: {
    flag: '--run-group',
    value: 'name',
    description: 'the name every shard of one run is given (default: derived from the tasks and settings)',
    rule: TEXT,
    commands: BOTH,
  },
} satisfies OptionsTable<SettingsCliOptions>;
