/** The commands that move results files around: `export atif` and `results merge`. */
import type { Command } from 'commander';
import { collect, int, TASKS_DIR_HELP } from './options.js';

export function registerExport(program: Command): void {
  program
    .command('export')
    .description('export results to other tools’ formats')
    .command('atif')
    .description("a results file's trials as Harbor trajectories (ATIF v1.4)")
    .argument('<result-file>', 'a results file (results/*.json)')
    .option('--trial <n>', 'print this trial’s trajectory (trials count from 1)', int('--trial', 1))
    .option(
      '--out <dir>',
      'write every trial as a Harbor trial folder: <dir>/<task>__<trial>/ with agent/trajectory.json, verifier/reward.txt and result.json',
    )
    .option('--tasks-dir <dir>', TASKS_DIR_HELP, collect, [])
    .action(async (file: string, opts) => {
      const { exportAtifCommand } = await import('../commands/export.js');
      await exportAtifCommand(file, opts);
    });
}

export function registerResults(program: Command): void {
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
      const { resultsMergeCommand } = await import('../commands/results.js');
      await resultsMergeCommand(dirs, opts);
    });
}
