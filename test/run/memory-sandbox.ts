/**
 * A sandbox that runs nothing: every command succeeds with no output, the workspace stays empty. For
 * tests of the runner around the trials (model server failures, results writing), without Docker.
 */
import type { Environment } from '../../src/results/result-file.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import type { SandboxTask } from '../../src/tasks/types.js';

export function memorySandbox(): Sandbox & { writes: { path: string; bytes: number }[] } {
  const writes: { path: string; bytes: number }[] = [];
  const ok = { exitCode: 0, stdout: '', stderr: '', stdoutCutBytes: 0, stderrCutBytes: 0, timedOut: false };
  return {
    id: 'memory',
    cwd: '/workspace',
    writes,
    runCommand: async () => ({ ...ok, elapsedMs: 1, cwd: '/workspace', cwdAfter: '/workspace' }),
    readFile: async (path) => ({ ok: true, path, content: '', totalBytes: 0, offset: 0, truncated: false }),
    writeFile: async (path, content) => {
      writes.push({ path, bytes: content.length });
      return { ok: true, path, bytes: content.length };
    },
    exec: async () => ({ ...ok, elapsedMs: 1 }),
    putFiles: async () => {},
    getFiles: async () => new Map(),
    snapshot: async () => new Map(),
    workspaceChanges: async () => ({ paths: [], snapshotMs: 0 }),
    killAgentProcesses: async () => {},
    killAllProcesses: async () => {},
    stageForChecks: async () => '/checks/copy',
    reset: async () => {},
    dispose: async () => {},
  };
}

/** A task passed by a final answer that says "done"; nothing to set up or check in a sandbox. */
export const SAY_DONE: SandboxTask = {
  kind: 'sandbox',
  id: 'say_done_v1',
  meta: { domain: 'test', difficulty: 'easy', description: 'say done', optimalSteps: 1 },
  prompt: 'Say done.',
  maxTurns: 5,
  allowedWrites: ['**'],
  ignored: [],
  files: [],
  flags: [
    {
      id: 'said_done',
      description: 'the final answer says done',
      kind: 'outcome',
      check: (ctx) =>
        ctx.finalAnswer?.includes('done') === true ? { reached: true, turn: null } : { reached: false },
    },
  ],
  referenceSolution: [{ text: 'done', calls: [] }],
};

/** The environment a run in memory records: no image, no server, no Docker. */
export function memoryEnvironment(model: string, extra: Partial<Environment> = {}): Environment {
  return {
    sandbox_image: 'memory',
    image_id: null,
    image_source: null,
    sampling: { temperature: 0 },
    base_url: null,
    server: null,
    model,
    harness_version: 'test',
    node_version: process.version,
    docker_version: null,
    ...extra,
  };
}
