/**
 * A container run once to its end (the tools volume's filling, the fitting of a task's image): created,
 * started, waited for under deadlines; a non-zero exit is an InfraError carrying the end of its
 * output. The caller removes it (after a commit, say), whatever happened.
 */
import type Docker from 'dockerode';
import { InfraError } from '../../util/errors.js';
import { ENGINE_CALL_MS, withDeadline } from '../docker/deadline.js';
import { engineError } from '../docker/engine.js';

/** Runs `options` to its end within `ms`; `use` gets the stopped container, which is then removed. */
export async function runOnce<T>(
  client: Docker,
  options: Docker.ContainerCreateOptions,
  what: string,
  ms: number,
  use: (container: Docker.Container) => Promise<T>,
): Promise<T> {
  let container: Docker.Container;
  try {
    container = await withDeadline(
      (abortSignal) => client.createContainer({ ...options, abortSignal }),
      ENGINE_CALL_MS,
      what,
    );
  } catch (err) {
    throw engineError(what, err);
  }
  try {
    await withDeadline((abortSignal) => container.start({ abortSignal }), ENGINE_CALL_MS, what);
    const exit = (await withDeadline(() => container.wait(), ms, what)) as { StatusCode?: number };
    if (exit.StatusCode !== 0) {
      const said = (await container.logs({ stdout: true, stderr: true })).toString('utf8').trim();
      throw new InfraError(`${what} failed (exit ${exit.StatusCode}): ${said.slice(-300)}`);
    }
    return await use(container);
  } catch (err) {
    throw engineError(what, err);
  } finally {
    await container.remove({ force: true }).catch(() => {});
  }
}
