/** The commands that run models on tasks: `run` (the default) and `ladder`; their options: option-table/. */
import type { Command } from 'commander';
import { withTableOptions } from '../option-table/commander.js';

export function registerRun(program: Command): void {
  withTableOptions(
    program
      .command('run', { isDefault: true })
      .description('run tasks k times against a model and write results (the default command)'),
    'run',
  ).action(async (opts) => {
    const { runCommand } = await import('../commands/run.js');
    await runCommand(opts);
  });
}

export function registerLadder(program: Command): void {
  withTableOptions(
    program
      .command('ladder')
      .description(
        'run the tasks on each model from the smallest up; stop at the first that passes them all at pass^k',
      ),
    'ladder',
  ).action(async (opts) => {
    const { ladderCommand } = await import('../commands/ladder.js');
    await ladderCommand(opts);
  });
}
