/**
 * Every option of `run` and `ladder`, declared once (as vitest's cliOptionsConfig): commander's
 * options (commander.ts), docs/commands.md and the config file's schema (config-schema.ts) come from
 * it. Keyed by the options the commands parse into (RunCliOptions, LadderCliOptions): spec.ts makes a
 * missing or extra entry a compile error. Each command lists its options in this order.
 */
import { TOOL_CALL_MODES } from '../../models/tool-call-mode.js';
import { DEFAULT_INJECTION_RATE } from '../../results/condition.js';
import { SPLIT_HELP, SPLITS, TASKS_DIR_HELP } from '../register/options.js';
import type { SettingsCliOptions } from '../run-options.js';
import { atLeast, choice, integer, LIST, PARALLEL, PROBABILITY, SWITCH, TEXT } from './rules.js';
import { SETTINGS_OPTIONS } from './settings.js';
import type { AnyOptionSpec, BenchOptions, OptionsTable, TableCommand } from './spec.js';

const RUN = ['run'] as const;
const LADDER = ['ladder'] as const;
const BOTH = ['run', 'ladder'] as const;

/** What each command takes beside the settings they share. */
const COMMAND_OPTIONS = {
  model: {
    flag: '--model',
    value: 'name',
    description:
      'model name as the server knows it; "oracle" runs the built-in reference agent; gguf:/path/model.gguf loads a GGUF in-process',
    rule: TEXT,
    commands: RUN,
  },
  tasks: {
    flag: '--tasks',
    value: 'ids',
    description: 'comma-separated task ids, or "all"',
    default: 'all',
    rule: TEXT,
    commands: BOTH,
  },
  task: {
    flag: '--task',
    value: 'id',
    description: 'one task id (alias of --tasks ID)',
    rule: TEXT,
    commands: RUN,
  },
  models: {
    flag: '--models',
    value: 'names',
    description: 'comma-separated model names on the server (sizes from the server, else from the names)',
    rule: TEXT,
    commands: LADDER,
  },
  modelsFromServer: {
    flag: '--models-from-server',
    description: 'every model the server lists',
    default: false,
    rule: SWITCH,
    commands: LADDER,
  },
  ggufDir: {
    flag: '--gguf-dir',
    value: 'dir',
    description: 'every GGUF file in this folder: in-process, or on --server-cmd',
    rule: TEXT,
    commands: LADDER,
  },
  baseUrl: {
    flag: '--base-url',
    value: 'url',
    description: {
      run: 'OpenAI-compatible endpoint, e.g. http://127.0.0.1:8080/v1 (default: probe local servers)',
      ladder: 'server of --models / --models-from-server (default: probe local servers)',
    },
    rule: TEXT,
    commands: BOTH,
  },
  serverCmd: {
    flag: '--server-cmd',
    value: 'cmd',
    description: "start a server per GGUF file, e.g. 'llama-server -m {model} --port {port} --jinja'",
    rule: TEXT,
    commands: LADDER,
  },
  ctx: {
    flag: '--ctx',
    value: 'sizes',
    description:
      'context sizes, e.g. 4096,8192: each GGUF file runs once per size, on a --server-cmd with {ctx}',
    rule: TEXT,
    commands: LADDER,
  },
  cacheType: {
    flag: '--cache-type',
    value: 'types',
    description:
      'KV-cache types, e.g. f16,q8_0,q4_0: each GGUF file runs once per type, on a --server-cmd with {cache_type}',
    rule: TEXT,
    commands: LADDER,
  },
  serverStartTimeout: {
    flag: '--server-start-timeout',
    value: 'sec',
    description: 'how long a --server-cmd server may take to become healthy',
    default: 300,
    rule: atLeast(1),
    commands: LADDER,
  },
  exhaustive: {
    flag: '--exhaustive',
    description: 'run every model instead of stopping at the first that passes',
    default: false,
    rule: SWITCH,
    commands: LADDER,
  },
  target: {
    flag: '--target',
    value: 'p',
    description:
      'pass rate a rung must be shown to reach (below 1: each rung runs in rounds until a Clopper–Pearson bound decides; 1: pass^k)',
    rule: PROBABILITY,
    commands: LADDER,
  },
  confidence: {
    flag: '--confidence',
    value: 'c',
    description: 'confidence of each one-sided bound with --target (default 0.9)',
    rule: PROBABILITY,
    commands: LADDER,
  },
  maxK: {
    flag: '--max-k',
    value: 'n',
    description: 'trials per task at most with --target; a rung still open there is undecided (default 30)',
    rule: integer(1),
    commands: LADDER,
  },
  skillDir: {
    flag: '--skill-dir',
    value: 'dir',
    description: {
      run: 'a skill folder (SKILL.md + bench_manifest.json) to bench as a task; repeat for more (see skills/README.md)',
      ladder: 'a skill folder to bench as a task; repeat for more',
    },
    default: [],
    rule: LIST,
    commands: BOTH,
  },
  tasksDir: {
    flag: '--tasks-dir',
    value: 'dir',
    description: TASKS_DIR_HELP,
    default: [],
    rule: LIST,
    commands: BOTH,
  },
  split: { flag: '--split', value: 'which', description: SPLIT_HELP, rule: choice(SPLITS), commands: BOTH },
  baseImage: {
    flag: '--base-image',
    value: 'image',
    description: {
      run: "build Harbor tasks' Dockerfiles on this local image instead of their FROM (offline machines, where it cannot be pulled)",
      ladder: "build Harbor tasks' Dockerfiles on this local image instead of their FROM",
    },
    rule: TEXT,
    commands: BOTH,
  },
  parallel: {
    flag: '--parallel',
    value: 'n',
    description: {
      run: 'trials on up to n containers at once, for a server that serves several requests at once; "auto": its slot count (llama-server) or 1',
      ladder: 'trials on up to n containers at once within a rung; "auto": the server\'s slot count',
    },
    default: 1,
    rule: PARALLEL,
    commands: BOTH,
  },
  skillAb: {
    flag: '--skill-ab',
    description:
      'run each skill task with and without its skill, and compare pass^k, score, turns and tokens',
    default: false,
    rule: SWITCH,
    commands: RUN,
  },
  statusFile: {
    flag: '--status-file',
    value: 'file',
    description:
      "keep the run's progress in FILE as JSON (rewritten on every change), for tools watching the run",
    rule: TEXT,
    commands: RUN,
  },
  conditions: {
    flag: '--conditions',
    value: 'list',
    description:
      'run each task under each condition: clean, noisy (tool calls may fail), adversarial (tool outputs carry injections)',
    default: 'clean',
    rule: TEXT,
    commands: RUN,
  },
  failureRate: {
    flag: '--failure-rate',
    value: 'p',
    description: 'noisy: chance that a tool call returns an injected fault instead of running',
    default: 0.2,
    rule: PROBABILITY,
    commands: RUN,
  },
  injectionSite: {
    flag: '--injection-site',
    value: 'site',
    description:
      'adversarial: sampled (every tool return may carry the payload, see --injection-rate) or fixed (one site per task)',
    default: 'sampled',
    rule: TEXT,
    commands: RUN,
  },
  injectionRate: {
    flag: '--injection-rate',
    value: 'p',
    description: 'adversarial, sampled site: chance that one tool return carries the payload',
    default: DEFAULT_INJECTION_RATE,
    rule: PROBABILITY,
    commands: RUN,
  },
  injectionClasses: {
    flag: '--injection-classes',
    value: 'list',
    description:
      'adversarial: the injection classes dealt to the trials, "all" or comma-separated ids (agent-bench list --injections)',
    default: 'all',
    rule: TEXT,
    commands: RUN,
  },
  injectionSeed: {
    flag: '--injection-seed',
    value: 'n',
    description:
      'adversarial: mixed into every draw of which calls carry a payload (the same seed: the same attacks)',
    default: 0,
    rule: integer(0),
    commands: RUN,
  },
  userModel: {
    flag: '--user-model',
    value: 'name',
    description:
      "dialogue tasks (helpdesk_*): a model plays the simulated user (default: each scenario's scripted user)",
    rule: TEXT,
    commands: RUN,
  },
  userBaseUrl: {
    flag: '--user-base-url',
    value: 'url',
    description: 'OpenAI-compatible endpoint of --user-model (default: --base-url)',
    rule: TEXT,
    commands: RUN,
  },
  judgeModel: {
    flag: '--judge-model',
    value: 'name',
    description:
      "an LLM grades each trial's transcript against the task's instructions and policy, recorded as the trial's judge beside the deterministic verdict (which it never changes)",
    rule: TEXT,
    commands: RUN,
  },
  judgeBaseUrl: {
    flag: '--judge-base-url',
    value: 'url',
    description: 'OpenAI-compatible endpoint of --judge-model (default: --base-url)',
    rule: TEXT,
    commands: RUN,
  },
  toolCalls: {
    flag: '--tool-calls',
    value: 'mode',
    description:
      'which tool calls count: native (calls printed as text are not run), text (no tools sent; the model is told a text format and its text calls are parsed), both',
    default: 'both',
    rule: choice(TOOL_CALL_MODES),
    commands: RUN,
  },
} satisfies OptionsTable<Omit<BenchOptions, keyof SettingsCliOptions>>;

const OPTIONS: Readonly<Record<keyof BenchOptions, AnyOptionSpec>> = {
  ...COMMAND_OPTIONS,
  ...SETTINGS_OPTIONS,
};

/** The options `command` takes (without one: all), by commander's key (camelCase), in the order its help lists them. */
export function optionsOf(command?: TableCommand): Array<[key: string, spec: AnyOptionSpec]> {
  return Object.entries(OPTIONS).filter(
    ([, spec]) => command === undefined || spec.commands.includes(command),
  );
}
