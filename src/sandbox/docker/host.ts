/**
 * Where the sandbox engine is: `--docker-host` or DOCKER_HOST, in the forms the docker CLI takes:
 * `unix:///path/to/docker.sock`, `tcp://host:port` (TLS when DOCKER_TLS_VERIFY=1 or port 2376, with
 * certificates from DOCKER_CERT_PATH) and `ssh://[user@]host[:port]` (the remote's own docker CLI,
 * through `docker system dial-stdio`, authenticated by the SSH agent). Checked when given, so a typo
 * is one line instead of a connection error halfway into a run.
 */
import { UsageError } from '../../util/errors.js';

/** The address as given, or a one-line UsageError naming `from` (the option or the variable) and the forms. */
export function checkDockerHost(text: string, from: string): string {
  const problem = hostProblem(text);
  if (problem === null) return text;
  throw new UsageError(
    `${from} ${JSON.stringify(text)}: ${problem} (forms: unix:///path/to/docker.sock, tcp://host:port, ssh://[user@]host[:port])`,
  );
}

function hostProblem(text: string): string | null {
  const scheme = /^([a-z]+):\/\//.exec(text)?.[1];
  if (scheme === undefined) return 'needs a scheme';
  if (scheme === 'unix')
    return text.length > 'unix://'.length && text[7] === '/' ? null : 'needs an absolute socket path';
  if (scheme !== 'tcp' && scheme !== 'ssh') return `${scheme}:// is not an engine address`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'is not a valid address';
  }
  if (url.hostname === '') return 'needs a host';
  if (url.pathname !== '' && url.pathname !== '/') return 'takes no path';
  // Docker's client fills in 2375; dockerode would silently go to port 80.
  if (scheme === 'tcp' && url.port === '') return 'needs a port (2375 plain, 2376 TLS)';
  return null;
}
