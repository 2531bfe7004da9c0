/**
 * The command line: declares commands and options only (one module per group of commands under
 * register/). Each command's code is imported when it runs, so `--help` stays instant. This file is
 * the only place that turns errors into exit codes.
 */
import { Command, CommanderError } from 'commander';
import { AgentBenchError, InfraError } from '../util/errors.js';
import { HARNESS_VERSION } from '../util/version.js';
import { registerServe } from './register/dashboard.js';
import { registerDoctor, registerImage, registerModels } from './register/machine.js';
import { registerGate, registerReport, registerStats } from './register/reports.js';
import { registerExport, registerResults } from './register/results.js';
import { registerConfig, registerLadder, registerRun } from './register/run.js';
import { registerSkill } from './register/skills.js';
import { registerList, registerTask, registerValidate } from './register/tasks.js';

/** Every command, in the order `--help` lists them (each group's module under register/ declares its options). */
const COMMANDS: ReadonlyArray<(program: Command) => void> = [
  registerRun,
  registerList,
  registerDoctor,
  registerValidate,
  registerSkill,
  registerImage,
  registerModels,
  registerLadder,
  registerConfig,
  registerReport,
  registerExport,
  registerTask,
  registerResults,
  registerGate,
  registerStats,
  registerServe,
];

export function buildProgram(): Command {
  const program = new Command('agent-bench')
    .description(
      'Find the smallest local model (and quantization) that runs your agent skill soundly, end to end.',
    )
    .version(HARNESS_VERSION)
    .showHelpAfterError('(run agent-bench --help for usage)')
    // Commander would exit 1 itself; usage errors are exit 2 here, decided in one place below.
    .exitOverride();

  program.hook('preAction', async (_program, action) => {
    // run/ladder --config FILE: the file's options under the flags, first (it may name the engine).
    const config: unknown = action.opts().config;
    if (typeof config === 'string') {
      const { applyConfigFile } = await import('./option-table/config-file.js');
      applyConfigFile(action, config);
    }
    // Before a command that talks to the sandbox engine runs: the engine it talks to.
    const host: unknown = action.opts().dockerHost;
    if (typeof host !== 'string') return;
    const { useDockerHost } = await import('../sandbox/index.js');
    useDockerHost(host);
  });

  for (const register of COMMANDS) register(program);
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
