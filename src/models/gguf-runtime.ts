/**
 * node-llama-cpp is ESM-only, ships native binaries per platform and takes a while to import, so
 * it is loaded only when a `gguf:` model is asked for, and its absence is a usage problem with a fix.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InfraError, UsageError } from '../util/errors.js';
import { packageRoot } from '../util/package-root.js';

export type NodeLlamaCpp = typeof import('node-llama-cpp');

/**
 * The exact command that installs it where agent-bench resolves it: next to agent-bench's own
 * package.json (a global install's sibling packages are not on its resolution path), at the version
 * package.json pins as an optional dependency.
 */
function nodeLlamaCppInstallCommand(): string {
  const root = packageRoot();
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    optionalDependencies?: Record<string, string>;
  };
  const version = pkg.optionalDependencies?.['node-llama-cpp'] ?? 'latest';
  return `npm install --prefix ${JSON.stringify(root)} --no-save node-llama-cpp@${version}`;
}

let loaded: Promise<NodeLlamaCpp> | null = null;

export function loadNodeLlamaCpp(): Promise<NodeLlamaCpp> {
  loaded ??= importNodeLlamaCpp(() => import('node-llama-cpp')).catch((err: unknown) => {
    loaded = null;
    throw err;
  });
  return loaded;
}

/** Runs `load` and turns its failure into a one-line error that says what to do. */
export async function importNodeLlamaCpp(load: () => Promise<NodeLlamaCpp>): Promise<NodeLlamaCpp> {
  try {
    return await load();
  } catch (err) {
    if (isModuleNotFound(err)) {
      throw new UsageError(
        `gguf: models need node-llama-cpp, which is not installed: run ${nodeLlamaCppInstallCommand()}`,
        {
          cause: err,
        },
      );
    }
    const detail = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new InfraError(
      `node-llama-cpp could not be loaded (${detail}); reinstall it with ${nodeLlamaCppInstallCommand()}`,
      {
        cause: err,
      },
    );
  }
}

/** Only node-llama-cpp itself missing; a dependency of it missing is a broken install. */
function isModuleNotFound(err: unknown): boolean {
  return (
    err instanceof Error &&
    'code' in err &&
    err.code === 'ERR_MODULE_NOT_FOUND' &&
    err.message.includes("'node-llama-cpp'")
  );
}
