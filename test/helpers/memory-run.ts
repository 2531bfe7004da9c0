/**
 * What a run in memory needs besides its sandbox (./memory-sandbox.ts): a task that a final answer
 * passes, and the environment such a run records. For tests of the runner around the trials (model
 * server failures, results writing), without Docker.
 */
import type { Environment } from '../../src/results/result-file.js';
import { FLAG_JUDGE, SANDBOX_ENVIRONMENT, type SandboxTask } from '../../src/tasks/types.js';

/** A task passed by a final answer that says "done"; nothing to set up or check in a sandbox. */
export const SAY_DONE: SandboxTask = {
  kind: 'sandbox',
  id: 'say_done_v1',
  meta: { domain: 'test', difficulty: 'easy', description: 'say done', optimalSteps: 1 },
  prompt: 'Say done.',
  maxTurns: 5,
  environment: SANDBOX_ENVIRONMENT,
  judge: FLAG_JUDGE,
  mountedFiles: [],
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
