/** `serve`: the local dashboard. */
import type { Command } from 'commander';
import { int } from './options.js';

export function registerServe(program: Command): void {
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
      'model server whose models the run panel lists and runs (default: the local server a run finds: llama-server :8080, Ollama :11434, LM Studio :1234)',
    )
    .action(async (opts) => {
      const { serveCommand } = await import('../commands/serve.js');
      await serveCommand(opts);
    });
}
