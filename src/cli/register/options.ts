/** Argument parsers and the options several commands share. */
import { type Command, InvalidArgumentError, Option } from 'commander';

export function int(name: string, min: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min)
      throw new InvalidArgumentError(`${name} must be an integer >= ${min}`);
    return n;
  };
}

export function num(name: string, min: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < min) throw new InvalidArgumentError(`${name} must be a number >= ${min}`);
    return n;
  };
}

export function probability(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1)
      throw new InvalidArgumentError(`${name} must be a number from 0 to 1`);
    return n;
  };
}

/** `--parallel`: a whole number >= 1, or `auto` (the server's slot count). */
export function parallelArg(value: string): number | 'auto' {
  if (value === 'auto') return 'auto';
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new InvalidArgumentError('--parallel must be an integer >= 1 or auto');
  return n;
}

/** `--tasks-dir`, on every command that reads the task catalogue. */
export const TASKS_DIR_HELP =
  'task folders to add to the built-in tasks: a folder with task.toml (or task.json), or a folder of them; repeatable';

/** `--split`, beside every `--tasks-dir` (src/cli/select-tasks.ts applies it). */
export function splitOption(): Option {
  return new Option(
    '--split <which>',
    'dev: leave out tasks tagged split = "holdout" (keep them out of your tuning); holdout: only those; all (default)',
  ).choices(['dev', 'holdout', 'all']);
}

/** A repeatable option's values, in order. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** `--docker-host`, for every command that talks to the sandbox engine (applied before it runs). */
export function withDockerHost(command: Command): Command {
  return command.option(
    '--docker-host <url>',
    'Docker engine for the sandboxes: unix:///path, tcp://host:port or ssh://[user@]host (default: DOCKER_HOST, else the local socket)',
  );
}
