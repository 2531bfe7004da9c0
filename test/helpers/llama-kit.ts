/**
 * The real llama-server for integration tests: the build scripts/provision-llama.sh cached and the
 * tiny Qwen2.5 models scripts/make-qwen-gguf.mjs made from it (made here when missing), or why they are
 * not there (then the tests skip and say so). AGENT_BENCH_LLAMA_DIR and AGENT_BENCH_TINY_QWEN_DIR name
 * them; without them the default cache folders are looked in, so a developer who provisioned once needs
 * nothing more. `.ci/run` builds in the background while the other tests run, and says where in
 * AGENT_BENCH_LLAMA_BUILD (the path prefix of the job's .out, .err and, once it ended, .rc files): the
 * kit then waits for the build (these files run last, in the vitest project `llama`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { findModels, makeQwenModels, modelsDirFor, type Quant } from '../../scripts/make-qwen-gguf.mjs';

export interface LlamaKit {
  /** The folder provision-llama.sh printed. */
  llamaDir: string;
  serverBin: string;
  /** The folder of the four quantized models (nothing else in it). */
  modelsDir: string;
  models: Record<Quant, string>;
  /** The llama.cpp commit the binaries were built from. */
  commit: string;
}

const ROOT = join(import.meta.dirname, '../..');
const HOW =
  'run: bash scripts/provision-llama.sh, then node scripts/make-qwen-gguf.mjs <the folder it printed>';

/** How long the kit waits for a background build (.ci/run starts it before the other tests). */
// At most this long after the other tests: CI stays well inside its time even when the build is slow.
const BUILD_WAIT_MS = 25 * 60_000;

/** The kit, or one line saying what is missing (for the skip message). */
export async function findLlamaKit(
  env: NodeJS.ProcessEnv = process.env,
): Promise<LlamaKit | { missing: string }> {
  const job = env.AGENT_BENCH_LLAMA_BUILD;
  if (job !== undefined && env.AGENT_BENCH_LLAMA_DIR === undefined) {
    const failed = await backgroundBuild(job);
    if (failed !== null) return { missing: failed };
  }
  const llamaDir = env.AGENT_BENCH_LLAMA_DIR ?? defaultLlamaDir(env);
  if (llamaDir === null) return { missing: `no llama.cpp source to find a build of (${HOW})` };
  const serverBin = join(llamaDir, 'bin', 'llama-server');
  if (!existsSync(serverBin)) return { missing: `no llama-server at ${serverBin} (${HOW})` };
  const modelsDir = env.AGENT_BENCH_TINY_QWEN_DIR ?? modelsDirFor(llamaDir);
  let models = findModels(modelsDir);
  if (models === null && env.AGENT_BENCH_TINY_QWEN_DIR === undefined) {
    // Half a minute, once: the generator caches them by its version, the seed and the llama.cpp commit.
    try {
      models = findModels(makeQwenModels(llamaDir));
    } catch (err) {
      return {
        missing: `cannot make the tiny Qwen models: ${err instanceof Error ? err.message : String(err)}`,
      };
    }
  }
  if (models === null) return { missing: `no tiny Qwen models in ${modelsDir} (${HOW})` };
  const commitFile = join(llamaDir, 'COMMIT');
  const commit = existsSync(commitFile) ? readFileSync(commitFile, 'utf8').trim() : 'unknown';
  return { llamaDir, serverBin, modelsDir, models, commit };
}

/** Waits for .ci/run's background provision-llama.sh; null when it succeeded, else why not. */
async function backgroundBuild(job: string): Promise<string | null> {
  // Each test file asks on its own: once one has waited in vain, the others do not wait again.
  const gaveUp = `${job}.gave-up`;
  const late = `the llama.cpp build was not done after ${BUILD_WAIT_MS / 60_000} minutes`;
  const deadline = Date.now() + BUILD_WAIT_MS;
  while (!existsSync(`${job}.rc`)) {
    if (existsSync(gaveUp)) return late;
    if (Date.now() > deadline) {
      writeFileSync(gaveUp, `${late}\n`);
      return late;
    }
    await sleep(5_000);
  }
  if (readFileSync(`${job}.rc`, 'utf8').trim() === '0') return null;
  const err = existsSync(`${job}.err`) ? readFileSync(`${job}.err`, 'utf8').trim().split('\n') : [];
  return `the llama.cpp build failed: ${err.at(-1) ?? 'no output'}`;
}

/** Where provision-llama.sh caches the build of the llama.cpp node-llama-cpp ships. */
function defaultLlamaDir(env: NodeJS.ProcessEnv): string | null {
  const bundle = join(ROOT, 'node_modules/node-llama-cpp/llama/gitRelease.bundle');
  if (!existsSync(bundle)) return null;
  let heads: string;
  try {
    heads = execFileSync('git', ['bundle', 'list-heads', bundle], { encoding: 'utf8' });
  } catch {
    return null;
  }
  const commit = /^([0-9a-f]{40}) HEAD$/m.exec(heads)?.[1];
  if (commit === undefined) return null;
  const cache = env.AGENT_BENCH_CACHE ?? join(homedir(), '.cache', 'agent-bench');
  return join(cache, 'llama.cpp', commit);
}

/** For describe.skipIf: says once, visibly, why the file's tests do not run. */
export function skipWithoutLlama(kit: LlamaKit | { missing: string }, what: string): boolean {
  if (!('missing' in kit)) return false;
  console.warn(`real llama-server tests skipped (${what}): ${kit.missing}`);
  return true;
}
