/** `--server-cmd` templates: checked when given, filled in per model file. */
import { basename } from 'node:path';
import { modelSlug } from '../results/layout.js';
import { UsageError } from '../util/errors.js';
import type { RungConfig } from './rung-config.js';

/**
 * Without `{model}` every rung would serve the same model; without `{port}` the server cannot be
 * found. `--ctx`/`--cache-type` values the template never passes on would be rungs that differ only
 * in their names, and a `{ctx}`/`{cache_type}` with no value would reach the server as text.
 */
export function checkServerCommand(
  template: string,
  asked: { ctx: boolean; cacheType: boolean } = { ctx: false, cacheType: false },
): void {
  const missing = ['{model}', '{port}'].filter((p) => !template.includes(p));
  if (missing.length > 0) {
    throw new UsageError(
      `--server-cmd must contain ${missing.join(' and ')}, e.g. 'llama-server -m {model} --port {port} --jinja'`,
    );
  }
  for (const [placeholder, option, given] of [
    ['{ctx}', '--ctx', asked.ctx],
    ['{cache_type}', '--cache-type', asked.cacheType],
  ] as const) {
    const has = template.includes(placeholder);
    if (given && !has)
      throw new UsageError(
        `${option} needs ${placeholder} in --server-cmd, e.g. 'llama-server -m {model} --port {port} -c {ctx} -ctk {cache_type} -ctv {cache_type}'`,
      );
    if (has && !given)
      throw new UsageError(`--server-cmd has ${placeholder}: give its values with ${option}`);
  }
}

/** The shell command for one rung: `{model}` becomes the quoted path, `{port}` the port, `{ctx}`/`{cache_type}` the rung's. */
export function serverCommandLine(
  template: string,
  modelPath: string,
  port: number,
  config: RungConfig = { ctx: null, cacheType: null },
): string {
  // Replacer functions: a `$&` in a path must stay literal, not become a replacement pattern.
  const quoted = shellQuote(modelPath);
  let line = template.replaceAll('{model}', () => quoted).replaceAll('{port}', () => String(port));
  // Both are checked values (a whole number, a known type name): nothing to quote.
  if (config.ctx !== null) line = line.replaceAll('{ctx}', () => String(config.ctx));
  if (config.cacheType !== null) line = line.replaceAll('{cache_type}', () => String(config.cacheType));
  return line;
}

/** Single quotes keep every character literal in bash; a single quote itself is closed, escaped, reopened. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** `servers/<model-file>[-<config>]-<runId>.log`, relative to the results folder. */
export function serverLogName(modelPath: string, runId: string, configSlug = ''): string {
  const file = modelSlug(basename(modelPath).replace(/\.gguf$/i, ''));
  return `servers/${file}${configSlug === '' ? '' : `-${configSlug}`}-${runId}.log`;
}
