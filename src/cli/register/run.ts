/** The commands that run models on tasks: `run` (the default) and `ladder`; their options: option-table/. */
import { Argument, type Command } from 'commander';
import { withTableOptions } from '../option-table/commander.js';
import { TABLE_COMMANDS, type TableCommand } from '../option-table/spec.js';

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

export function registerConfig(program: Command): void {
  program
    .command('config')
    .description('the config file of run and ladder (--config FILE)')
    .command('schema')
    .description(
      'the JSON Schema of a command\'s config file, for editors (a JSON file may name it in "$schema")',
    )
    .addArgument(new Argument('<command>', 'the command whose file it describes').choices(TABLE_COMMANDS))
    .action(async (command: TableCommand) => {
      const { configSchemaCommand } = await import('../commands/config-schema.js');
      configSchemaCommand({ command });
    });
}
