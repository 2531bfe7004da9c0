/** The commands about the tasks themselves: `list`, `validate` and `task from-trial`. */
import type { Command } from 'commander';
import { collect, int, parallelArg, splitOption, TASKS_DIR_HELP, withDockerHost } from './options.js';

export function registerList(program: Command): void {
  program
    .command('list')
    .description('list the tasks, with where each comes from')
    .option('--tasks-dir <dir>', TASKS_DIR_HELP, collect, [])
    .addOption(splitOption())
    .option(
      '--flags',
      "show each flag's description: the evidence it asks for, and the causal rule it applies",
    )
    .option('--injections', "list the adversarial condition's injection classes, each with its definition")
    .action(async (opts) => {
      const { listCommand } = await import('../commands/list.js');
      await listCommand(opts);
    });
}

export function registerValidate(program: Command): void {
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
    .option(
      '--variants <n>',
      'variant tasks (a [variants] generator): prove n instances of each, the first n a run draws, each drawn twice to show its generator deterministic; other tasks are proven once as ever',
      int('--variants', 1),
      1,
    )
    .option(
      '--metamorphic',
      "also derive runs from each task's reference run and prove them: mutants of its changes, stand-ins for its test runs (each must be caught), and its work in other styles (each must still pass); a task names operators that do not apply in task.toml [metamorphic.skip]",
    )
    .option(
      '--json <file>',
      'also write every validation row as JSON to this file (for CI and scripts), whether or not all pass',
    )
    .action(async (opts) => {
      const { validateCommand } = await import('../commands/validate.js');
      await validateCommand(opts);
    });
}

export function registerTask(program: Command): void {
  const task = program.command('task').description('work with task folders');
  task
    .command('from-trial')
    .description(
      'a draft task folder from a trial that went wrong: its task as the trial started it, the trial replayed as a lure, and a TODO list of what validate needs',
    )
    .argument('<result-file>', 'a results file (results/*.json)')
    .argument('<dir>', 'the new task folder (missing or empty)')
    .requiredOption('--trial <n>', 'the trial to draft from (trials count from 1)', int('--trial', 1))
    .option('--tasks-dir <dir>', TASKS_DIR_HELP, collect, [])
    .action(async (file: string, dir: string, opts) => {
      const { taskFromTrialCommand } = await import('../commands/task.js');
      await taskFromTrialCommand(file, dir, opts);
    });
  task
    .command('export')
    .description(
      "a task folder written in another harness's format: --format harbor, a Harbor task whose tests/test.sh runs the task's outcome checks (the flags judged on the trace are left out, and its README.md says which)",
    )
    .argument('<id>', 'the task (a built-in task or one under --tasks-dir)')
    .requiredOption('--format <format>', 'the format: harbor')
    .requiredOption('--out <dir>', 'the new task folder (missing or empty)')
    .option('--tasks-dir <dir>', TASKS_DIR_HELP, collect, [])
    .action(async (id: string, opts) => {
      const { taskExportCommand } = await import('../commands/task-export.js');
      await taskExportCommand(id, opts);
    });
}
