/**
 * A Harbor task as a task a model runs: instruction.md is the prompt, its trials run in its
 * environment (the sandbox's HarborEnvironment: the workspace starts as the Dockerfile's WORKDIR),
 * the one flag is the verifier's reward (verify.ts), and `--model oracle` runs solution/solve.sh
 * as the agent. The agent may change
 * anything in its workdir (Harbor has no protected files), so tamper detection has nothing to
 * guard but what happens after the agent's turns.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openHarborEnvironment } from '../../../sandbox/index.js';
import { WORKSPACE_DIR } from '../../../sandbox/types.js';
import { InternalError } from '../../../util/errors.js';
import type { HarborTask as HarborTaskOf, Task } from '../../types.js';
import { harborEnvironmentSpec } from './environment.js';
import type { HarborTask } from './load.js';
import { harborVerdict, REWARD_FLAG } from './verify.js';

/** Harbor bounds a trial by time, not turns; this is the turn budget it gets here. */
const HARBOR_MAX_TURNS = 50;
const SOLVE_SCRIPT = 'solution/solve.sh';

export interface HarborRunOptions {
  /** `--base-image`: the task's FROM replaced by this local image (agent-bench's sandbox image). */
  baseImage?: string;
}

export function harborAsTask(h: HarborTask, o: HarborRunOptions = {}): HarborTaskOf {
  const workdir = h.dockerfile?.facts.workdir ?? '/';
  const environment = openHarborEnvironment(harborEnvironmentSpec(h, o.baseImage));
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
    allowedWrites: ['**'],
    ignored: [],
    files: [],
    setupCommands: [...environment.setupCommands],
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
    harbor: {
      image: (onProgress) => environment.sandboxImage(onProgress),
      limits: { cpus: h.environment.cpus, memory_mb: h.environment.memoryMb },
      agentTimeoutSec: h.agentTimeoutSec,
      verify: async (sandbox) => harborVerdict(h, await environment.verify(sandbox)),
    },
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

/** solve.sh run by the agent in its workspace; with no solve.sh the oracle does nothing. */
function oracle(h: HarborTask): Task['referenceSolution'] {
  if (!h.hasSolution) return [{ text: 'no solution/solve.sh', calls: [] }];
  const script = readFileSync(join(h.dir, SOLVE_SCRIPT), 'utf8');
  return [
    {
      calls: [
        // "$BASH": the agent's own shell, the harness's bash, which the task's image may lack.
        {
          name: 'execute_command',
          arguments: { command: `"$BASH" <<'HARBOR_SOLVE'\n${script}\nHARBOR_SOLVE` },
        },
      ],
    },
    { text: 'done', calls: [] },
  ];
}

/** sha256 of the environment, tests and solution, 16 hex. */
function digest(h: HarborTask): string {
  const hash = createHash('sha256').update(h.contextDigest);
  for (const [sub, files] of [
    ['tests', h.tests],
    ['solution', h.solution],
  ] as const)
    for (const rel of files) hash.update(`\0${sub}/${rel}\0`).update(readFileSync(join(h.dir, sub, rel)));
  return hash.digest('hex').slice(0, 16);
}
