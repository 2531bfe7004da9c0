/**
 * A Harbor task as a task a model runs: instruction.md is the prompt, its trials run in its
 * environment (the sandbox's HarborEnvironment: the workspace starts as the Dockerfile's WORKDIR),
 * the one flag is the verifier's reward (verify.ts), and `--model oracle` runs solution/solve.sh
 * as Harbor's oracle does (as root, all of solution/ at /solution). The agent may change
 * anything in its workdir (Harbor has no protected files), so tamper detection has nothing to
 * guard but what happens after the agent's turns.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openHarborEnvironment } from '../../sandbox/index.js';
import { WORKSPACE_DIR } from '../../sandbox/types.js';
import type { HarborTask as HarborTaskOf, Task } from '../../tasks/types.js';
import { InternalError } from '../../util/errors.js';
import { harborEnvironmentSpec } from './environment.js';
import { type HarborTask, harborWorkdir } from './load.js';
import { harborVerdict, REWARD_FLAG } from './verify.js';

/** Harbor bounds a trial by time, not turns; this is the turn budget it gets here. */
export const HARBOR_MAX_TURNS = 50;
/** What the oracle's call shows: what Harbor's oracle runs (as root, in the image's WORKDIR). */
const ORACLE_COMMAND = 'bash /solution/solve.sh';

export interface HarborRunOptions {
  /** `--base-image`: the task's FROM replaced by this local image (agent-bench's sandbox image). */
  baseImage?: string;
}

export function harborAsTask(h: HarborTask, o: HarborRunOptions = {}): HarborTaskOf {
  const workdir = harborWorkdir(h);
  const spec = harborEnvironmentSpec(h, o.baseImage);
  const environment = openHarborEnvironment(spec);
  return {
    kind: 'harbor',
    id: h.id,
    meta: {
      domain: 'harbor',
      difficulty: 'medium',
      description: `Harbor task from ${h.dir}`,
      optimalSteps: 2,
    },
    prompt: prompt(h.instruction, workdir),
    maxTurns: HARBOR_MAX_TURNS,
    // Its own image with the harness's tools, task.toml's resources and agent timeout.
    environment: {
      place: 'container',
      image: (onProgress) => environment.sandboxImage(onProgress),
      limits: { cpus: h.environment.cpus, memory_mb: h.environment.memoryMb },
      mounts: [],
      ...(spec.services === undefined ? {} : { services: spec.services }),
      agentTimeoutSec: h.agentTimeoutSec,
    },
    source: { folders: [], from: { noun: 'Harbor task', dir: h.dir } },
    judge: { by: 'verifier', verify: async (sandbox) => harborVerdict(h, await environment.verify(sandbox)) },
    ...(h.hasSolution
      ? { referenceAgent: { command: ORACLE_COMMAND, run: (sandbox) => environment.runOracle(sandbox) } }
      : {}),
    allowedWrites: ['**'],
    ignored: [],
    files: [],
    mountedFiles: [],
    setupCommands: [...environment.setupCommands],
    ...(h.environment.mcpServers.length === 0 ? {} : { mcpServers: h.environment.mcpServers }),
    flags: [
      {
        id: REWARD_FLAG,
        kind: 'outcome',
        // The digest versions the task: its environment, tests and oracle decide its verdicts.
        description: `tests/test.sh gives a reward of 1 (Harbor task ${digest(h)})`,
        check() {
          throw new InternalError(`${h.id}: a Harbor task is judged by its verifier, not by flag checks`);
        },
      },
    ],
    referenceSolution: oracle(h),
  };
}

/** The instruction, and where its paths are: the WORKDIR it names is the agent's workspace. */
function prompt(instruction: string, workdir: string): string {
  const where =
    workdir === '/' || workdir === WORKSPACE_DIR
      ? ''
      : `\n\n(${workdir} is your working directory, ${WORKSPACE_DIR}: the same folder.)`;
  return `${instruction.trim()}${where}`;
}

/**
 * The oracle's one call. A model replaying it (`--model oracle`) has it run as Harbor's oracle runs
 * (harbor.oracle: every file of solution/ at /solution, solve.sh as root), never as the agent; with
 * no solve.sh the oracle does nothing.
 */
function oracle(h: HarborTask): Task['referenceSolution'] {
  if (!h.hasSolution) return [{ text: 'no solution/solve.sh', calls: [] }];
  return [
    { calls: [{ name: 'execute_command', arguments: { command: ORACLE_COMMAND } }] },
    { text: 'done', calls: [] },
  ];
}

/** sha256 of the environment, tests and solution, and of the task.toml settings that change a run, 16 hex. */
function digest(h: HarborTask): string {
  const hash = createHash('sha256').update(h.contextDigest);
  // Only when set, so the versions of tasks without them stay what they were.
  if (h.environment.workdir !== null) hash.update(`\0workdir\0${h.environment.workdir}`);
  for (const [scope, vars] of [
    ['verifier', h.verifier.env],
    ['oracle', h.oracleEnv],
  ] as const)
    for (const [k, v] of Object.entries(vars).sort(([a], [b]) => a.localeCompare(b)))
      hash.update(`\0${scope}-env\0${k}=${v}`);
  for (const [sub, files] of [
    ['tests', h.tests],
    ['solution', h.solution],
  ] as const)
    for (const rel of files) hash.update(`\0${sub}/${rel}\0`).update(readFileSync(join(h.dir, sub, rel)));
  return hash.digest('hex').slice(0, 16);
}
