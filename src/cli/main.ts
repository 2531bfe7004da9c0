/**
 * The command line: declares commands and options only. Each command's code is imported when it runs,
 * so `--help` stays instant. This file is the only place that turns errors into exit codes.
 */
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { AgentBenchError, InfraError } from '../util/errors.js';
import { HARNESS_VERSION } from '../util/version.js';

function int(name: string, min: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min)
      throw new InvalidArgumentError(`${name} must be an integer >= ${min}`);
    return n;
  };
}

function num(name: string, min: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < min) throw new InvalidArgumentError(`${name} must be a number >= ${min}`);
    return n;
  };
}

function probability(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1)
      throw new InvalidArgumentError(`${name} must be a number from 0 to 1`);
    return n;
  };
}

/** `--parallel`: a whole number >= 1, or `auto` (the server's slot count). */
function parallelArg(value: string): number | 'auto' {
  if (value === 'auto') return 'auto';
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new InvalidArgumentError('--parallel must be an integer >= 1 or auto');
  return n;
}

/** `--tasks-dir`, on every command that reads the task catalogue. */
const TASKS_DIR_HELP =
  'task folders to add to the built-in tasks: a folder with task.toml (or task.json), or a folder of them; repeatable';

/** `--split`, beside every `--tasks-dir` (src/cli/select-tasks.ts applies it). */
function splitOption(): Option {
  return new Option(
    '--split <which>',
    'dev: leave out tasks tagged split = "holdout" (keep them out of your tuning); holdout: only those; all (default)',
  ).choices(['dev', 'holdout', 'all']);
}

/** A repeatable option's values, in order. */
function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** The options `run` and `ladder` share: trials, limits, sampling, and how to reach a model (see run-options.ts). */
function withSettingsOptions(command: Command): Command {
  return withDockerHost(command)
    .option('-k, --k <n>', 'trials per task', int('--k', 1), 1)
    .option('--early-stop', 'end a task at its first failed trial (one failure decides pass^k)', false)
    .option('--api-key-env <var>', 'environment variable holding the API key', 'AGENT_BENCH_API_KEY')
    .option('--results-dir <dir>', 'where results files go', 'results')
    .option(
      '--max-turns <n>',
      "override every task's max turns (marks the run non-comparable)",
      int('--max-turns', 1),
    )
    .option('--command-timeout <sec>', 'timeout of one shell command', num('--command-timeout', 1), 60)
    .option('--request-timeout <sec>', 'timeout of one model request', num('--request-timeout', 1), 600)
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
    .addOption(new Option('--max-tokens <n>', 'max tokens per reply').argParser(int('--max-tokens', 1)))
    .option(
      '--shard <i/N>',
      'run shard i of N: a fixed share of the trials, so N machines split one run (join them with results merge)',
    )
    .option(
      '--run-group <name>',
      'the name every shard of one run is given (default: derived from the tasks and settings)',
    );
}

/** `--docker-host`, for every command that talks to the sandbox engine (applied before it runs). */
function withDockerHost(command: Command): Command {
  return command.option(
    '--docker-host <url>',
    'Docker engine for the sandboxes: unix:///path, tcp://host:port or ssh://[user@]host (default: DOCKER_HOST, else the local socket)',
  );
}

export function buildProgram(): Command {
  const program = new Command('agent-bench')
    .description(
      'Find the smallest local model (and quantization) that runs your agent skill soundly, end to end.',
    )
    .version(HARNESS_VERSION)
    .showHelpAfterError('(run agent-bench --help for usage)')
    // Commander would exit 1 itself; usage errors are exit 2 here, decided in one place below.
    .exitOverride();

  // Before a command that talks to the sandbox engine runs: the engine it talks to.
  program.hook('preAction', async (_program, action) => {
    const host: unknown = action.opts().dockerHost;
    if (typeof host !== 'string') return;
    const { useDockerHost } = await import('../sandbox/index.js');
    useDockerHost(host);
  });

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
        "build Harbor tasks' Dockerfiles on this local image instead of their FROM (offline machines; agent-bench's sandbox image gives them its sandbox)",
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
        '--user-model <name>',
        "dialogue tasks (helpdesk_*): a model plays the simulated user (default: each scenario's scripted user)",
      )
      .option('--user-base-url <url>', 'OpenAI-compatible endpoint of --user-model (default: --base-url)'),
  ).action(async (opts) => {
    const { runCommand } = await import('./commands/run.js');
    await runCommand(opts);
  });

  program
    .command('list')
    .description('list the tasks, with where each comes from')
    .option('--tasks-dir <dir>', TASKS_DIR_HELP, collect, [])
    .addOption(splitOption())
    .action(async (opts) => {
      const { listCommand } = await import('./commands/list.js');
      await listCommand(opts);
    });

  withDockerHost(program.command('doctor'))
    .description(
      'check the Docker engine, the sandbox image and the model server, and say what to do about each',
    )
    .option('--sweep', 'remove sandbox containers left behind by crashed runs', false)
    .option('--base-url <url>', 'model server to check (default: probe local servers)')
    .action(async (opts) => {
      const { doctorCommand } = await import('./commands/doctor.js');
      await doctorCommand(opts);
    });

  withDockerHost(program.command('validate'))
    .description('prove the tasks sound: each oracle passes, doing nothing scores 0, every lure is caught')
    .option('--tasks <ids>', 'comma-separated task ids, or "all"', 'all')
    .option(
      '--skill-dir <dir>',
      "prove a skill's manifest satisfiable (its reference_solution is the oracle); repeatable",
      collect,
      [],
    )
    .option('--tasks-dir <dir>', TASKS_DIR_HELP, collect, [])
    .addOption(splitOption())
    .option(
      '--base-image <image>',
      "build Harbor tasks' Dockerfiles on this local image instead of their FROM (offline machines)",
    )
    .option(
      '--parallel <n>',
      'tasks proven at once, each in its own sandbox; "auto": one per core',
      parallelArg,
      1,
    )
    .option('--no-cache', 'prove every task again, even one whose cached proof matches all its inputs')
    .action(async (opts) => {
      const { validateCommand } = await import('./commands/validate.js');
      await validateCommand(opts);
    });

  const skill = program.command('skill').description('bench your own skills');
  skill
    .command('init')
    .argument('<dir>', 'the skill folder (with SKILL.md)')
    .description(
      'write a starter bench_manifest.json for a skill folder, with TODOs where a person must decide',
    )
    .option('--force', 'replace an existing bench_manifest.json', false)
    .action(async (dir: string, opts) => {
      const { skillInitCommand } = await import('./commands/skill.js');
      await skillInitCommand(dir, opts);
    });

  const image = program.command('image').description('the sandbox image');
  withDockerHost(image.command('build'))
    .description('build the sandbox image (registry base when reachable, offline debootstrap base otherwise)')
    .action(async () => {
      const { imageBuildCommand } = await import('./commands/image.js');
      await imageBuildCommand();
    });

  program
    .command('models')
    .description(
      'list the models a server offers (or the GGUF files in a folder): parameters, quantization, size, context',
    )
    .option(
      '--base-url <url>',
      'model server to ask (default: probe llama-server :8080, Ollama :11434, LM Studio :1234)',
    )
    .option('--gguf-dir <dir>', 'folder of GGUF files to describe from their headers (no model is loaded)')
    .option('--json', 'print JSON instead of a table', false)
    .action(async (opts) => {
      const { modelsCommand } = await import('./commands/models.js');
      await modelsCommand(opts);
    });

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
        '--server-start-timeout <sec>',
        'how long a --server-cmd server may take to become healthy',
        num('--server-start-timeout', 1),
        300,
      )
      .option('--exhaustive', 'run every model instead of stopping at the first that passes', false)
      .option('--skill-dir <dir>', 'a skill folder to bench as a task; repeat for more', collect, [])
      .option('--tasks-dir <dir>', TASKS_DIR_HELP, collect, [])
      .addOption(splitOption())
      .option(
        '--base-image <image>',
        "build Harbor tasks' Dockerfiles on this local image instead of their FROM",
      ),
  ).action(async (opts) => {
    const { ladderCommand } = await import('./commands/ladder.js');
    await ladderCommand(opts);
  });

  const report = program.command('report').description('reports from the results files');
  report
    .command('tiers')
    .description(
      'tier each model on the suite tasks it ran: full discipline, outcome-capable, misses outcomes, cannot drive tools',
    )
    .option('--results-dir <dir>', 'where results files are', 'results')
    .addOption(new Option('--format <format>', 'output format').choices(['md', 'json']).default('md'))
    .option(
      '--tasks <ids>',
      'comma-separated task ids that make up the suite (default: every task with results)',
    )
    .action(async (opts) => {
      const { tiersCommand } = await import('./commands/tiers.js');
      await tiersCommand(opts);
    });

  report
    .command('matrix')
    .description('model × task table of the newest result per (task, model): pass^k, score, turns, time')
    .option('--results-dir <dir>', 'where results files are', 'results')
    .option('--out <file>', 'write to this file instead of stdout')
    .addOption(new Option('--format <format>', 'output format').choices(['md', 'json', 'csv']).default('md'))
    .option('--models <names>', 'comma-separated models to show (default: every model with results)')
    .action(async (opts) => {
      const { reportMatrixCommand } = await import('./commands/report.js');
      await reportMatrixCommand(opts);
    });

  report
    .command('radar')
    .description('self-contained HTML radar of up to 4 models over the ability axes (formulas in the legend)')
    .requiredOption('--models <names>', 'comma-separated model names, 1 to 4')
    .option('--results-dir <dir>', 'where results files are', 'results')
    .option(
      '--out <file>',
      'write to this file instead of stdout (with --png: the PNG file, default radar.png)',
    )
    .option('--png', 'render a PNG with the system Chromium instead of writing HTML', false)
    .action(async (opts) => {
      const { reportRadarCommand } = await import('./commands/report.js');
      await reportRadarCommand(opts);
    });

  report
    .command('card')
    .description(
      'one-page model card: tier, strengths, failures with the flags missed and a transcript excerpt',
    )
    .requiredOption('--model <name>', 'the model, as recorded in the results')
    .option('--results-dir <dir>', 'where results files are', 'results')
    .option('--out <file>', 'write to this file instead of stdout')
    .addOption(new Option('--format <format>', 'output format').choices(['html', 'md']).default('html'))
    .option('--tasks <ids>', 'comma-separated task ids the card covers (default: every task with results)')
    .action(async (opts) => {
      const { reportCardCommand } = await import('./commands/report.js');
      await reportCardCommand(opts);
    });

  program
    .command('export')
    .description('export results to other tools’ formats')
    .command('atif')
    .description("a results file's trials as Harbor trajectories (ATIF v1.4)")
    .argument('<result-file>', 'a results file (results/*.json)')
    .option('--trial <n>', 'print this trial’s trajectory (trials count from 1)', int('--trial', 1))
    .option('--out <dir>', 'write every trial’s trajectory as <dir>/<task>__<trial>/agent/trajectory.json')
    .option('--tasks-dir <dir>', TASKS_DIR_HELP, collect, [])
    .action(async (file: string, opts) => {
      const { exportAtifCommand } = await import('./commands/export.js');
      await exportAtifCommand(file, opts);
    });

  program
    .command('task')
    .description('work with task folders')
    .command('from-trial')
    .description(
      'a draft task folder from a trial that went wrong: its task as the trial started it, the trial replayed as a lure, and a TODO list of what validate needs',
    )
    .argument('<result-file>', 'a results file (results/*.json)')
    .argument('<dir>', 'the new task folder (missing or empty)')
    .requiredOption('--trial <n>', 'the trial to draft from (trials count from 1)', int('--trial', 1))
    .option('--tasks-dir <dir>', TASKS_DIR_HELP, collect, [])
    .action(async (file: string, dir: string, opts) => {
      const { taskFromTrialCommand } = await import('./commands/task.js');
      await taskFromTrialCommand(file, dir, opts);
    });

  const results = program.command('results').description('work with results folders');
  results
    .command('merge')
    .description(
      'join the shards of a run split with --shard i/N into the results (and ladder verdict) one machine would have written',
    )
    .argument('<dirs...>', "the shards' results folders")
    .requiredOption('--into <dir>', 'where the merged results go (made if missing)')
    .option('--run-group <name>', 'merge only the shards of this run (when the folders hold several)')
    .action(async (dirs: string[], opts) => {
      const { resultsMergeCommand } = await import('./commands/results.js');
      await resultsMergeCommand(dirs, opts);
    });

  report
    .command('axes')
    .description(
      'operational axes per model and condition: completion, pass^k, recovery, safety, efficiency, cost, each with n and a 95 % interval',
    )
    .option('--results-dir <dir>', 'where results files are', 'results')
    .option('--out <file>', 'write to this file instead of stdout')
    .addOption(new Option('--format <format>', 'output format').choices(['md', 'json', 'csv']).default('md'))
    .option('--models <names>', 'comma-separated models to show (default: every model with results)')
    .option(
      '--price-table <file>',
      'JSON prices per million tokens, or per hour, by model: adds USD per trial',
    )
    .option('--compare <models...>', 'two models A B: paired per-task differences B − A, and which hold up')
    .action(async (opts) => {
      const { reportAxesCommand } = await import('./commands/report.js');
      await reportAxesCommand(opts);
    });

  program
    .command('gate')
    .description(
      'exit 1 when a candidate regressed against a baseline beyond the noise (completion, pass^k, safety; cost beyond a tolerance), 0 when not, 2 for bad usage',
    )
    .requiredOption('--baseline <dir>', 'results folder of the baseline run')
    .requiredOption('--candidate <dir>', 'results folder of the candidate run')
    .option('--baseline-model <name>', 'the model in --baseline to compare (when it holds several)')
    .option('--candidate-model <name>', 'the model in --candidate to compare (when it holds several)')
    .option(
      '--cost-tolerance <fraction>',
      'allowed rise of tokens or wall time per trial, beyond the noise (0.2: 20 %)',
      num('--cost-tolerance', 0),
      0.2,
    )
    .action(async (opts) => {
      const { gateCommand } = await import('./commands/gate.js');
      await gateCommand(opts);
    });

  program
    .command('stats')
    .description(
      "every trial of the results as one long-form CSV line, and each file's summary recomputed from its trials (exit 1 when one disagrees)",
    )
    .argument('[paths...]', 'results folders or files (default: results)')
    .option('--out <file>', 'write the CSV to this file instead of stdout')
    .action(async (paths: string[], opts) => {
      const { statsCommand } = await import('./commands/stats.js');
      await statsCommand({ paths, ...opts });
    });

  program
    .command('serve')
    .description('local dashboard: matrix, transcripts, artifacts, radar, and a run panel')
    .option('--results-dir <dir>', 'where results files are', 'results')
    .option(
      '--host <host>',
      'address to bind; anything but loopback exposes results and runs to the network',
      '127.0.0.1',
    )
    .option('--port <n>', 'port to listen on (0: any free port)', int('--port', 0), 8765)
    .option(
      '--base-url <url>',
      'model server whose models the run panel lists and runs (default: runs probe local servers)',
    )
    .action(async (opts) => {
      const { serveCommand } = await import('./commands/serve.js');
      await serveCommand(opts);
    });

  return program;
}

export async function main(argv: string[]): Promise<void> {
  quietOnClosedPipe(process.stdout);
  quietOnClosedPipe(process.stderr);
  try {
    await buildProgram().parseAsync(argv);
  } catch (err) {
    process.exitCode = reportError(err);
  }
}

function reportError(err: unknown): number {
  // Commander has already printed its message (or the help / version it was asked for).
  if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
  if (err instanceof AgentBenchError) {
    process.stderr.write(`agent-bench: ${err.message}\n`);
    return err.exitCode;
  }
  // A system call the machine refused (disk full, permission denied...) is no bug of ours: one
  // line and the infrastructure exit code.
  if (isSystemError(err)) {
    process.stderr.write(`agent-bench: ${err.message}\n`);
    return new InfraError(err.message).exitCode;
  }
  const detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
  process.stderr.write(`agent-bench: internal error (this is a bug, please report it):\n${detail}\n`);
  return 70;
}

function isSystemError(err: unknown): err is NodeJS.ErrnoException {
  return err instanceof Error && typeof (err as NodeJS.ErrnoException).code === 'string' && 'syscall' in err;
}

/**
 * `agent-bench list | head -1`: once the reader is gone, output is dropped quietly instead of an
 * unhandled EPIPE killing the process with a stack trace; the command finishes its work (a run
 * still writes its results files and cleans up its containers).
 */
function quietOnClosedPipe(stream: NodeJS.WriteStream): void {
  if (guarded.has(stream)) return;
  guarded.add(stream);
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
  });
}

const guarded = new WeakSet<NodeJS.WriteStream>();
