/**
 * rawExec with the sandbox's rules for its own execs (file tools, snapshots, kills, resets,
 * staging, transfers): each runs as root, where nothing the agent runs can signal it (the file
 * tools act on files as the agent, see files.ts); a default deadline; a missed deadline is an
 * ExecStalled (stall.ts) and a stopped container a ContainerGoneError.
 */
import type Docker from 'dockerode';
import { InfraError } from '../../util/errors.js';
import type { SandboxUser } from '../types.js';
import { containerState } from './container.js';
import {
  ContainerGoneError,
  type ExecRunner,
  type RawExecRequest,
  type RawExecResult,
  rawExec,
} from './raw-exec.js';

const DEFAULT_DEADLINE_MS = 60_000;

/** How the sandbox's parts run their internal execs: always as root. */
export type RawRunner = (
  req: Omit<RawExecRequest, 'deadlineMs' | 'user'> & {
    user: 'root';
    deadlineMs?: number;
    /** Whose work the exec does, for an ExecStalled: the agent's for its file tools; default root. */
    actingFor?: SandboxUser;
  },
) => Promise<RawExecResult>;

/** An exec the engine accepted but could not start (e.g. no pid free in the container). */
export class ExecStartFailed extends InfraError {}

/** Where runRaw runs, and what it does when the container turns out suspect. */
export interface RawTarget {
  container: Docker.Container;
  /** The container is suspect: replace it at the next reset. */
  taint(): void;
  /** The error for an exec that missed its deadline (stall.ts stallError); the container is abandoned. */
  stalled(user: SandboxUser, what: string): Promise<InfraError>;
}

export async function runRaw(
  target: RawTarget,
  req: Parameters<RawRunner>[0],
  run: ExecRunner = (r) => rawExec(target.container, r),
): Promise<RawExecResult> {
  const { container, taint } = target;
  const { actingFor, ...request } = req;
  const deadlineMs = req.deadlineMs ?? DEFAULT_DEADLINE_MS;
  let r: RawExecResult;
  try {
    r = await run({ ...request, deadlineMs });
  } catch (err) {
    if (err instanceof InfraError) taint();
    throw err;
  }
  if (r.deadlineHit) {
    const what = `the sandbox did not finish \`${req.argv[0]}\` within ${Math.round(deadlineMs / 1000)} s`;
    throw await target.stalled(actingFor ?? 'root', what);
  }
  if (r.relayProblem !== undefined) {
    await gone(container, taint);
    throw new ExecStartFailed(
      `the sandbox's exec relay gave no result for \`${req.argv[0]}\`: ${r.relayProblem}`,
    );
  }
  // The engine reports a failed start in the output stream, not as an HTTP error.
  const said = r.stdout.subarray(0, 400).toString('utf8');
  if (r.exitCode !== 0 && said.startsWith('OCI runtime exec failed')) {
    await gone(container, taint);
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

/** Taints the container, and throws ContainerGoneError if it no longer runs. */
async function gone(container: Docker.Container, taint: () => void): Promise<void> {
  const state = await containerState(container);
  taint();
  if (!state.running)
    throw new ContainerGoneError(
      `sandbox container ${container.id.slice(0, 12)} is not running (${state.detail})`,
    );
}
