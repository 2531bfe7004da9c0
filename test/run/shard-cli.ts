/**
 * What a command line reaches in agent-bench's own parser: the command, its arguments and options,
 * after the program's hooks (--docker-host), without running the command.
 */
import { buildProgram } from '../../src/cli/main.js';
import type { SettingsCliOptions } from '../../src/cli/run-options.js';

export interface Reached {
  command: string;
  args: string[];
  opts: Record<string, unknown>;
}

export async function parsed(argv: readonly string[]): Promise<Reached> {
  const program = buildProgram();
  let reached: Reached | null = null;
  const stop = new Error('parsed');
  program.hook('preAction', (_root, action) => {
    reached = { command: action.name(), args: action.args, opts: action.opts() };
    throw stop;
  });
  program.configureOutput({ writeErr: () => {}, writeOut: () => {} });
  await program.parseAsync(['node', 'agent-bench', ...argv]).catch((err: unknown) => {
    if (err !== stop) throw err;
  });
  if (reached === null) throw new Error(`${argv.join(' ')} reached no command`);
  return reached;
}

/** The options of `run` or `ladder` as its command gets them (commander's own types say nothing). */
export function settingsOptions(r: Reached): SettingsCliOptions {
  return r.opts as unknown as SettingsCliOptions;
}
