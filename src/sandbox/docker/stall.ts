/**
 * An exec that missed its host-side deadline, told apart from a container that went away and from
 * an engine that went quiet. The harness attributes the first to the trial (src/agent/): the
 * engine answers and the container runs, so the stall happened inside the container, where the
 * agent's processes (or its code, run by a check) live. Everything else stays an infrastructure
 * error.
 */
import type Docker from 'dockerode';
import { InfraError } from '../../util/errors.js';
import type { SandboxUser } from '../types.js';
import { containerState } from './container.js';
import { withDeadline } from './deadline.js';
import { ContainerGoneError } from './raw-exec.js';

/** How long the engine may take to answer a ping after a stall before it counts as silent. */
const PING_MS = 5_000;

/** An exec of the sandbox gave no answer by its deadline while its container still ran. */
export class ExecStalled extends InfraError {
  /** Whose exec stalled: the agent's (its commands, its file tools), the checker's, or root's. */
  readonly user: SandboxUser;
  /** The engine answered a ping right after: the engine is fine, the stall was inside the container. */
  readonly engineAnswered: boolean;

  constructor(message: string, user: SandboxUser, engineAnswered: boolean) {
    super(message);
    this.user = user;
    this.engineAnswered = engineAnswered;
  }
}

/**
 * What an exec that missed its deadline means: ContainerGoneError when the container no longer
 * runs, otherwise an ExecStalled saying whether the engine still answers. `what` says which exec
 * and how long it had, for the message.
 */
export async function stallError(
  client: Docker,
  container: Docker.Container,
  user: SandboxUser,
  what: string,
): Promise<InfraError> {
  const short = container.id.slice(0, 12);
  let running: { running: boolean; detail: string };
  try {
    running = await containerState(container);
  } catch {
    running = { running: true, detail: 'no answer' };
  }
  if (!running.running)
    return new ContainerGoneError(`sandbox container ${short} is not running (${running.detail}): ${what}`);
  const engineAnswered = await answers(client);
  const where = engineAnswered
    ? 'the engine answers, so the stall is inside the container'
    : 'the Docker engine does not answer either';
  return new ExecStalled(`${what} (${where})`, user, engineAnswered);
}

interface Pingable {
  ping(options: { abortSignal: AbortSignal }): Promise<unknown>;
}

async function answers(client: Docker): Promise<boolean> {
  try {
    await withDeadline(
      // dockerode's ping takes the signal; its types do not say so.
      (signal) => (client as unknown as Pingable).ping({ abortSignal: signal }),
      PING_MS,
      'ping',
    );
    return true;
  } catch {
    return false;
  }
}
