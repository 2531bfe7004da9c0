/** Connection to the Docker engine: one client per process, honouring DOCKER_HOST like the CLI does. */
import Docker from 'dockerode';
import { errorMessage, InfraError } from '../../util/errors.js';
import { withDeadline } from './deadline.js';
import { checkDockerHost } from './host.js';

let shared: Docker | null = null;

/** The process-wide client. dockerode reads DOCKER_HOST (and DOCKER_TLS_VERIFY, DOCKER_CERT_PATH) itself. */
export function docker(): Docker {
  const host = process.env.DOCKER_HOST;
  if (shared === null && host !== undefined && host !== '') checkDockerHost(host, 'DOCKER_HOST');
  shared ??= new Docker();
  return shared;
}

/**
 * `--docker-host`: the sandboxes' engine for this process. dockerode takes the address (and, for
 * tcp, the TLS settings) from the environment only, so it is set there, as `docker -H` overrides
 * DOCKER_HOST for one command; called before any client is made.
 */
export function useDockerHost(host: string): void {
  process.env.DOCKER_HOST = checkDockerHost(host, '--docker-host');
  shared = null;
}

/** Where the client looks for the engine, for messages. */
function engineEndpoint(): string {
  return process.env.DOCKER_HOST ?? '/var/run/docker.sock';
}

export interface EngineInfo {
  endpoint: string;
  version: string;
  apiVersion: string;
}

const PING_TIMEOUT_MS = 5_000;

/** Pings the engine and reads its version; an InfraError saying what to do when nothing answers. */
export async function checkEngine(client: Docker = docker()): Promise<EngineInfo> {
  try {
    await withDeadline(() => client.ping(), PING_TIMEOUT_MS, 'ping');
    const v = await withDeadline(() => client.version(), PING_TIMEOUT_MS, 'version');
    return { endpoint: engineEndpoint(), version: v.Version, apiVersion: v.ApiVersion };
  } catch (err) {
    throw noEngine(err);
  }
}

function noEngine(err: unknown): InfraError {
  return new InfraError(
    `no Docker engine answers at ${engineEndpoint()} (${errorMessage(err)}): start it (scripts/provision-docker.sh) or set DOCKER_HOST`,
    { cause: err },
  );
}

/** Wraps a failed engine call: a refused or missing socket is "no engine", anything else says what failed. */
export function engineError(what: string, err: unknown): InfraError {
  if (err instanceof InfraError) return err;
  const code = (err as { code?: unknown }).code;
  if (code === 'ECONNREFUSED' || code === 'ENOENT' || code === 'EACCES') return noEngine(err);
  return new InfraError(`Docker engine: ${what} failed: ${errorMessage(err)}`, { cause: err });
}

/** HTTP status of a dockerode error (404, 409, ...), or null. */
export function statusOf(err: unknown): number | null {
  const status = (err as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' ? status : null;
}
