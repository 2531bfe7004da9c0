/** The commands about this machine: `doctor`, `image build` and `models`. */
import type { Command } from 'commander';
import { withDockerHost } from './options.js';

export function registerDoctor(program: Command): void {
  withDockerHost(program.command('doctor'))
    .description(
      'check the Docker engine, the sandbox image and the model server, and say what to do about each',
    )
    .option('--sweep', 'remove sandbox containers left behind by crashed runs', false)
    .option('--base-url <url>', 'model server to check (default: probe local servers)')
    .option(
      '--model <name>',
      "model to check for tool calls and context (default: the server's first, as a run picks)",
    )
    .action(async (opts) => {
      const { doctorCommand } = await import('../commands/doctor.js');
      await doctorCommand(opts);
    });
}

export function registerImage(program: Command): void {
  const image = program.command('image').description('the sandbox image');
  withDockerHost(image.command('build'))
    .description('build the sandbox image (registry base when reachable, offline debootstrap base otherwise)')
    .action(async () => {
      const { imageBuildCommand } = await import('../commands/image.js');
      await imageBuildCommand();
    });
}

export function registerModels(program: Command): void {
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
      const { modelsCommand } = await import('../commands/models.js');
      await modelsCommand(opts);
    });
}
