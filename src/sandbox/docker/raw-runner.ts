/** rawExec with the sandbox's rules: a default deadline, taint on a missed deadline, clear errors. */
import type Docker from 'dockerode';
import { InfraError } from '../../util/errors.js';
import type { SandboxUser } from '../types.js';
import { containerState } from './container.js';
import { engineAnswers } from './engine.js';
import {
  ContainerGoneError,
  type ExecRunner,
  type RawExecRequest,
  type RawExecResult,
  rawExec,
} from './raw-exec.js';

const DEFAULT_DEADLINE_MS = 60_000;

/** How the sandbox's parts run their internal execs (files, snapshot, kill, reset). */
export type RawRunner = (
  req: Omit<RawExecRequest, 'deadlineMs'> & { deadlineMs?: number },
) => Promise<RawExecResult>;

/** An exec the engine accepted but could not start (e.g. no pid free in the container). */
export class ExecStartFailed extends InfraError {}

/**
 * An exec that did not finish by its host-side deadline. `engineAnswered`: the engine answered a
 * ping right after, so the stall was inside the container, where the agent's processes (and its
 * code, run by a check) are: src/agent/attribution.ts charges it to the agent.
 */
export class ExecStalled extends InfraError {
  readonly user: SandboxUser;
  readonly engineAnswered: boolean;
  constructor(message: string, user: SandboxUser, engineAnswered: boolean) {
    super(message);
    this.user = user;
    this.engineAnswered = engineAnswered;
  }
}

export async function runRaw(
  container: Docker.Container,
  req: Parameters<RawRunner>[0],
  taint: () => void,
  run: ExecRunner = (r) => rawExec(container, r),
): Promise<RawExecResult> {
  let r: RawExecResult;
  try {
    r = await run({ ...req, deadlineMs: req.deadlineMs ?? DEFAULT_DEADLINE_MS });
  } catch (err) {
    if (err instanceof InfraError) taint();
    throw err;
  }
  if (r.deadlineHit) {
    taint();
    throw new ExecStalled(
      `the sandbox did not finish \`${req.argv[0]}\` within ${Math.round((req.deadlineMs ?? DEFAULT_DEADLINE_MS) / 1000)} s`,
      req.envUser ?? req.user,
      await engineAnswers(container),
    );
  }
  if (r.relayProblem !== undefined) {
    const state = await containerState(container);
    taint();
    if (!state.running)
      throw new ContainerGoneError(
        `sandbox container ${container.id.slice(0, 12)} is not running (${state.detail})`,
      );
    throw new ExecStartFailed(
      `the sandbox's exec relay gave no result for \`${req.argv[0]}\`: ${r.relayProblem}`,
    );
  }
  // The engine reports a failed start in the output stream, not as an HTTP error.
  const said = r.stdout.subarray(0, 400).toString('utf8');
  if (r.exitCode !== 0 && said.startsWith('OCI runtime exec failed')) {
    const state = await containerState(container);
    taint();
    if (!state.running)
      throw new ContainerGoneError(
        `sandbox container ${container.id.slice(0, 12)} is not running (${state.detail})`,
      );
    throw new ExecStartFailed(`the sandbox could not start \`${req.argv[0]}\`: ${said.trim()}`);
  }
  if (r.exitCode === null || r.exitCode >= 128) {
    const state = await containerState(container);
    if (!state.running) {
      taint();
      throw new ContainerGoneError(
        `sandbox container ${container.id.slice(0, 12)} stopped (${state.detail})`,
      );
    }
  }
  return r;
}
