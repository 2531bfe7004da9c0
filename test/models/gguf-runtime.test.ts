import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importNodeLlamaCpp, loadNodeLlamaCpp } from '../../src/models/gguf-runtime.js';
import { InfraError, UsageError } from '../../src/util/errors.js';

const failing = (err: Error) => () => Promise.reject(err);

describe('importNodeLlamaCpp', () => {
  it('names the install command in one line when node-llama-cpp is missing', async () => {
    const missing = Object.assign(new Error("Cannot find package 'node-llama-cpp' imported from /x.js"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    const err = await importNodeLlamaCpp(failing(missing)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    // The command installs next to agent-bench's own package.json, at the version it pins.
    const root = join(import.meta.dirname, '../..');
    expect((err as Error).message).toBe(
      `gguf: models need node-llama-cpp, which is not installed: run npm install --prefix "${root}" --no-save node-llama-cpp@3.21.1`,
    );
  });

  it('reports a broken install (a dependency or native binary missing) as an infrastructure problem', async () => {
    const depMissing = Object.assign(new Error("Cannot find package 'lifecycle-utils' imported from x"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    for (const cause of [depMissing, new Error('libllama.so: cannot open shared object file\nmore')]) {
      const err = await importNodeLlamaCpp(failing(cause)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InfraError);
      expect((err as Error).message).not.toContain('\n');
    }
  });

  it('loads the installed module once', async () => {
    const first = loadNodeLlamaCpp();
    expect(loadNodeLlamaCpp()).toBe(first);
    expect(typeof (await first).getLlama).toBe('function');
  });
});
