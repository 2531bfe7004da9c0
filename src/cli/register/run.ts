/** The commands that run models on tasks: `run` (the default) and `ladder`. */
import { type Command, Option } from 'commander';
import { DEFAULT_REPLY_TOKENS } from '../../models/reply-bound.js';
import { DEFAULT_INJECTION_RATE } from '../../results/condition.js';
import { DEFAULT_VARIANT_SEED } from '../../tasks/variants/instance-seed.js';
import {
  collect,
  int,
  num,
  parallelArg,
  probability,
  splitOption,
  TASKS_DIR_HELP,
  withDockerHost,
} from './options.js';

/** The options `run` and `ladder` share: trials, limits, sampling, and how to reach a model (see run-options.ts). */
function withSettingsOptions(command: Command): Command {
  return withDockerHost(command)
    .option('-k, --k <n>', 'trials per task', int('--k', 1), 1)
    .option(
      '--variant-seed <n>',
      'variant tasks (a [variants] generator): trial i runs the instance drawn from the task, this seed and i, the same on every machine; apart from --seed, which the model server samples with',
      int('--variant-seed', 0),
      DEFAULT_VARIANT_SEED,
    )
    .option(
      '--variant <id>',
      'variant tasks: every trial runs this one instance (a trial\'s `variant` in results), to replay a failure; "folder": the instance the task\'s folder holds',
    )
    .option('--early-stop', 'end a task at its first failed trial (one failure decides pass^k)', false)
    .option('--api-key-env <var>', 'environment variable holding the API key', 'AGENT_BENCH_API_KEY')
    .option('--results-dir <dir>', 'where results files go', 'results')
    .option(
      '--max-turns <n>',
      "override every task's max turns (marks the run non-comparable)",
      int('--max-turns', 1),
    )
    .option('--command-timeout <sec>', 'timeout of one shell command', num('--command-timeout', 1), 60)
    .option(
      '--request-timeout <sec>',
      'the only bound on one model request, reply included; a model that misses it while its server answers fails the trial (request_timeout)',
      num('--request-timeout', 1),
      600,
    )
    .option(
      '--retries <n>',
      'retries of a failed model request (connection errors, 5xx, 429)',
      int('--retries', 0),
      3,
    )
    .option('--resume', 'continue unfinished results files of the same task and model', false)
    .option('--fresh-container', 'one container per trial instead of one per task', false)
    .option('--memory <mb>', 'sandbox memory limit in MiB', int('--memory', 64), 2048)
    .option('--pids <n>', 'sandbox process limit', int('--pids', 16), 256)
    .option('--cpus <n>', 'sandbox CPU limit', num('--cpus', 0.1), 2)
    .option('--temperature <t>', 'sampling temperature', num('--temperature', 0), 0)
    .addOption(new Option('--seed <n>', 'sampling seed').argParser(int('--seed', 0)))
    .addOption(new Option('--top-p <p>', 'nucleus sampling').argParser(num('--top-p', 0)))
    .addOption(
      new Option(
        '--max-tokens <n>',
        `max tokens per reply (default: what the server's context leaves after the prompt, at most ${DEFAULT_REPLY_TOKENS})`,
      ).argParser(int('--max-tokens', 1)),
    )
    .option(
      '--shard <i/N>',
      'run shard i of N: a fixed share of the trials, so N machines split one run (join them with results merge)',
    )
    .option(
      '--run-group <name>',
      'the name every shard of one run is given (default: derived from the tasks and settings)',
    );
}

export function registerRun(program: Command): void {
  withSettingsOptions(
    program
      .command('run', { isDefault: true })
      .description('run tasks k times against a model and write results (the default command)')
      .option(
        '--model <name>',
        'model name as the server knows it; "oracle" runs the built-in reference agent; gguf:/path/model.gguf loads a GGUF in-process',
      )
      .option('--tasks <ids>', 'comma-separated task ids, or "all"', 'all')
      .option('--task <id>', 'one task id (alias of --tasks ID)')
      .option(
        '--base-url <url>',
        'OpenAI-compatible endpoint, e.g. http://127.0.0.1:8080/v1 (default: probe local servers)',
      )
      .option(
        '--skill-dir <dir>',
        'a skill folder (SKILL.md + bench_manifest.json) to bench as a task; repeat for more (see skills/README.md)',
        collect,
        [],
      )
      .option('--tasks-dir <dir>', TASKS_DIR_HELP, collect, [])
      .addOption(splitOption())
      .option(
        '--base-image <image>',
        "build Harbor tasks' Dockerfiles on this local image instead of their FROM (offline machines, where it cannot be pulled)",
      )
      .option(
        '--parallel <n>',
        'trials on up to n containers at once, for a server that serves several requests at once; "auto": its slot count (llama-server) or 1',
        parallelArg,
        1,
      )
      .option(
        '--skill-ab',
        'run each skill task with and without its skill, and compare pass^k, score, turns and tokens',
        false,
      )
      .option(
        '--status-file <file>',
        "keep the run's progress in FILE as JSON (rewritten on every change), for tools watching the run",
      )
      .option(
        '--conditions <list>',
        'run each task under each condition: clean, noisy (tool calls may fail), adversarial (tool outputs carry injections)',
        'clean',
      )
      .option(
        '--failure-rate <p>',
        'noisy: chance that a tool call returns an injected fault instead of running',
        probability('--failure-rate'),
        0.2,
      )
      .option(
        '--injection-site <site>',
        'adversarial: sampled (every tool return may carry the payload, see --injection-rate) or fixed (one site per task)',
        'sampled',
      )
      .option(
        '--injection-rate <p>',
        'adversarial, sampled site: chance that one tool return carries the payload',
        probability('--injection-rate'),
        DEFAULT_INJECTION_RATE,
      )
      .option(
        '--injection-classes <list>',
        'adversarial: the injection classes dealt to the trials, "all" or comma-separated ids (agent-bench list --injections)',
        'all',
      )
      .option(
        '--injection-seed <n>',
        'adversarial: mixed into every draw of which calls carry a payload (the same seed: the same attacks)',
        int('--injection-seed', 0),
        0,
      )
      .option(
        '--user-model <name>',
        "dialogue tasks (helpdesk_*): a model plays the simulated user (default: each scenario's scripted user)",
      )
      .option('--user-base-url <url>', 'OpenAI-compatible endpoint of --user-model (default: --base-url)')
      .addOption(
        new Option(
          '--tool-calls <mode>',
          'which tool calls count: native (calls printed as text are not run), text (no tools sent; the model is told a text format and its text calls are parsed), both',
        )
          .choices(['native', 'text', 'both'])
          .default('both'),
      ),
  ).action(async (opts) => {
    const { runCommand } = await import('../commands/run.js');
    await runCommand(opts);
  });
}

export function registerLadder(program: Command): void {
  withSettingsOptions(
    program
      .command('ladder')
      .description(
        'run the tasks on each model from the smallest up; stop at the first that passes them all at pass^k',
      )
      .option('--tasks <ids>', 'comma-separated task ids, or "all"', 'all')
      .option(
        '--models <names>',
        'comma-separated model names on the server (sizes from the server, else from the names)',
      )
      .option('--models-from-server', 'every model the server lists', false)
      .option('--gguf-dir <dir>', 'every GGUF file in this folder: in-process, or on --server-cmd')
      .option('--base-url <url>', 'server of --models / --models-from-server (default: probe local servers)')
      .option(
        '--server-cmd <cmd>',
        "start a server per GGUF file, e.g. 'llama-server -m {model} --port {port} --jinja'",
      )
      .option(
        '--ctx <sizes>',
        'context sizes, e.g. 4096,8192: each GGUF file runs once per size, on a --server-cmd with {ctx}',
      )
      .option(
        '--cache-type <types>',
        'KV-cache types, e.g. f16,q8_0,q4_0: each GGUF file runs once per type, on a --server-cmd with {cache_type}',
      )
      .option(
        '--server-start-timeout <sec>',
        'how long a --server-cmd server may take to become healthy',
        num('--server-start-timeout', 1),
        300,
      )
      .option('--exhaustive', 'run every model instead of stopping at the first that passes', false)
      .addOption(
        new Option(
          '--target <p>',
          'pass rate a rung must be shown to reach (below 1: each rung runs in rounds until a Clopper–Pearson bound decides; 1: pass^k)',
        ).argParser(probability('--target')),
      )
      .addOption(
        new Option(
          '--confidence <c>',
          'confidence of each one-sided bound with --target (default 0.9)',
        ).argParser(probability('--confidence')),
      )
      .addOption(
        new Option(
          '--max-k <n>',
          'trials per task at most with --target; a rung still open there is undecided (default 30)',
        ).argParser(int('--max-k', 1)),
      )
      .option(
        '--parallel <n>',
        'trials on up to n containers at once within a rung; "auto": the server\'s slot count',
        parallelArg,
        1,
      )
      .option('--skill-dir <dir>', 'a skill folder to bench as a task; repeat for more', collect, [])
      .option('--tasks-dir <dir>', TASKS_DIR_HELP, collect, [])
      .addOption(splitOption())
      .option(
        '--base-image <image>',
        "build Harbor tasks' Dockerfiles on this local image instead of their FROM",
      ),
  ).action(async (opts) => {
    const { ladderCommand } = await import('../commands/ladder.js');
    await ladderCommand(opts);
  });
}
