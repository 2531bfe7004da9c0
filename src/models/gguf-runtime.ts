/**
 * node-llama-cpp is ESM-only, ships native binaries per platform and takes a while to import, so
 * it is loaded only when a `gguf:` model is asked for, and its absence is a usage problem with a fix.
 */
import { InfraError, UsageError } from '../util/errors.js';

export type NodeLlamaCpp = typeof import('node-llama-cpp');

const NODE_LLAMA_CPP_INSTALL = 'npm i -E node-llama-cpp@3.21.1';

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
        `gguf: models need node-llama-cpp, which is not installed: run ${NODE_LLAMA_CPP_INSTALL}`,
        {
          cause: err,
        },
      );
    }
    const detail = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new InfraError(
      `node-llama-cpp could not be loaded (${detail}); reinstall it with ${NODE_LLAMA_CPP_INSTALL}`,
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
