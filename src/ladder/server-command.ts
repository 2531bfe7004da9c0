/** `--server-cmd` templates: checked when given, filled in per model file. */
import { basename } from 'node:path';
import { modelSlug } from '../results/layout.js';
import { UsageError } from '../util/errors.js';

/** Without `{model}` every rung would serve the same model; without `{port}` the server cannot be found. */
export function checkServerCommand(template: string): void {
  const missing = ['{model}', '{port}'].filter((p) => !template.includes(p));
  if (missing.length > 0) {
    throw new UsageError(
      `--server-cmd must contain ${missing.join(' and ')}, e.g. 'llama-server -m {model} --port {port} --jinja'`,
    );
  }
}

/** The shell command for one model file: `{model}` becomes the quoted path, `{port}` the port. */
export function serverCommandLine(template: string, modelPath: string, port: number): string {
  // Replacer functions: a `$&` in a path must stay literal, not become a replacement pattern.
  const quoted = shellQuote(modelPath);
  return template.replaceAll('{model}', () => quoted).replaceAll('{port}', () => String(port));
}

/** Single quotes keep every character literal in bash; a single quote itself is closed, escaped, reopened. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** `servers/<model-file>-<runId>.log`, relative to the results folder. */
export function serverLogName(modelPath: string, runId: string): string {
  return `servers/${modelSlug(basename(modelPath).replace(/\.gguf$/i, ''))}-${runId}.log`;
}
