/** Argument parsers and the options several commands share (run's and ladder's: option-table/). */
import { type Command, Option } from 'commander';
import { atLeast, fromFlagText, integer, PARALLEL } from '../option-table/rules.js';

export function int(name: string, min: number) {
  return (value: string): number => fromFlagText(integer(min), name, value);
}

export function num(name: string, min: number) {
  return (value: string): number => fromFlagText(atLeast(min), name, value);
}

/** `--parallel`: a whole number >= 1, or `auto` (the server's slot count). */
export function parallelArg(value: string): number | 'auto' {
  return fromFlagText(PARALLEL, '--parallel', value);
}

/** `--tasks-dir`, on every command that reads the task catalogue. */
export const TASKS_DIR_HELP =
  'task folders to add to the built-in tasks: a folder with task.toml (or task.json), or a folder of them; repeatable';

export const SPLITS = ['dev', 'holdout', 'all'] as const;
export const SPLIT_HELP =
  'dev: leave out tasks tagged split = "holdout" (keep them out of your tuning); holdout: only those; all (default)';

/** `--split`, beside every `--tasks-dir` (src/cli/select-tasks.ts applies it). */
export function splitOption(): Option {
  return new Option('--split <which>', SPLIT_HELP).choices(SPLITS);
}

/** A repeatable option's values, in order. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export const DOCKER_HOST_HELP =
  'Docker engine for the sandboxes: unix:///path, tcp://host:port or ssh://[user@]host (default: DOCKER_HOST, else the local socket)';

/** `--docker-host`, for every command that talks to the sandbox engine (applied before it runs). */
export function withDockerHost(command: Command): Command {
  return command.option('--docker-host <url>', DOCKER_HOST_HELP);
}
