/** The commands that read results files: `report <kind>`, `gate` and `stats`. */
import { type Command, Option } from 'commander';
import type { GateOn } from '../../report/gate.js';
import { num } from './options.js';

export function registerReport(program: Command): void {
  const report = program.command('report').description('reports from the results files');
  registerTiers(report);
  registerMatrix(report);
  registerRadar(report);
  registerCard(report);
  registerAxes(report);
}

function registerTiers(report: Command): void {
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
      const { tiersCommand } = await import('../commands/tiers.js');
      await tiersCommand(opts);
    });
}

function registerMatrix(report: Command): void {
  report
    .command('matrix')
    .description('model × task table of the newest result per (task, model): pass^k, score, turns, time')
    .option('--results-dir <dir>', 'where results files are', 'results')
    .option('--out <file>', 'write to this file instead of stdout')
    .addOption(new Option('--format <format>', 'output format').choices(['md', 'json', 'csv']).default('md'))
    .option('--models <names>', 'comma-separated models to show (default: every model with results)')
    .action(async (opts) => {
      const { reportMatrixCommand } = await import('../commands/report.js');
      await reportMatrixCommand(opts);
    });
}

function registerRadar(report: Command): void {
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
      const { reportRadarCommand } = await import('../commands/report.js');
      await reportRadarCommand(opts);
    });
}

function registerCard(report: Command): void {
  report
    .command('card')
    .description(
      'one-page model card: tier, strengths, failures with the flags missed and a transcript excerpt',
    )
    .requiredOption(
      '--model <name>',
      "the model, as recorded in the results or by the short name the reports show (a path's file stem)",
    )
    .option('--results-dir <dir>', 'where results files are', 'results')
    .option('--out <file>', 'write to this file instead of stdout')
    .addOption(new Option('--format <format>', 'output format').choices(['html', 'md']).default('html'))
    .option('--tasks <ids>', 'comma-separated task ids the card covers (default: every task with results)')
    .action(async (opts) => {
      const { reportCardCommand } = await import('../commands/report.js');
      await reportCardCommand(opts);
    });
}

function registerAxes(report: Command): void {
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
    .option(
      '--pareto [cost]',
      'completion against cost per trial per model and condition, the Pareto front marked and the dominated named (md or json); cost: tokens, usd (needs --price-table; its default then) or wall_sec (local models)',
    )
    .action(async (opts) => {
      const { reportAxesCommand } = await import('../commands/report.js');
      await reportAxesCommand(opts);
    });
}

export function registerGate(program: Command): void {
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
      'allowed rise of a cost per trial, beyond the noise (0.2: 20 %)',
      num('--cost-tolerance', 0),
      0.2,
    )
    .addOption(
      new Option(
        '--gate-on <cost>',
        'the cost that can fail the gate: tokens (what the model did; a busy machine cannot fake it), model-time (tokens and the model reply time), wall (tokens and the wall time per trial)',
      )
        .choices(['tokens', 'model-time', 'wall'] satisfies GateOn[])
        .default('tokens'),
    )
    .action(async (opts) => {
      const { gateCommand } = await import('../commands/gate.js');
      await gateCommand(opts);
    });
}

export function registerStats(program: Command): void {
  program
    .command('stats')
    .description(
      "every trial of the results as one long-form CSV line, and each file's summary recomputed from its trials (exit 1 when one disagrees)",
    )
    .argument('[paths...]', 'results folders or files (default: results)')
    .option('--out <file>', 'write the CSV to this file instead of stdout')
    .action(async (paths: string[], opts) => {
      const { statsCommand } = await import('../commands/stats.js');
      await statsCommand({ paths, ...opts });
    });
}
