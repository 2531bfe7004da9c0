/** `agent-bench serve`: the local dashboard, until Ctrl-C (which also stops a run started from it). */
import { isLoopbackHost } from '../../dashboard/security.js';
import { startDashboard } from '../../dashboard/server.js';
import { normalizeBaseUrl } from '../../models/base-url.js';
import { InfraError, UsageError } from '../../util/errors.js';
import { readableResultsDir } from '../results-dir.js';

export interface ServeOptions {
  resultsDir: string;
  host: string;
  port: number;
  baseUrl?: string;
  stderr?: NodeJS.WritableStream;
  /** Resolves to stop the server (tests); by default the first SIGINT or SIGTERM. */
  until?: Promise<void>;
}

export async function serveCommand(o: ServeOptions): Promise<void> {
  const stderr = o.stderr ?? process.stderr;
  if (!Number.isInteger(o.port) || o.port < 0 || o.port > 65535)
    throw new UsageError(`--port must be 0..65535 (got ${o.port})`);
  const resultsDir = readableResultsDir(o.resultsDir);
  const dashboard = await startDashboard({
    resultsDir,
    host: o.host,
    port: o.port,
    baseUrl: o.baseUrl === undefined ? null : normalizeBaseUrl(o.baseUrl),
    onError: (err) =>
      stderr.write(`agent-bench serve: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`),
  }).catch((err: unknown) => {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new InfraError(`port ${o.port} is in use on ${o.host}: pick another with --port`, { cause: err });
    if (code === 'EADDRNOTAVAIL')
      throw new UsageError(`cannot bind ${o.host}: no such local address`, { cause: err });
    throw err;
  });
  stderr.write(`agent-bench dashboard: ${dashboard.url}  (results: ${resultsDir}; Ctrl-C to stop)\n`);
  if (!isLoopbackHost(o.host)) {
    stderr.write(
      `warning: bound to ${o.host}, so other machines on the network can see these results and start runs ` +
        'from a page that holds the session token. Use --host 127.0.0.1 unless you mean it.\n',
    );
  }
  await (o.until ?? untilSignal());
  stderr.write(
    'agent-bench dashboard: stopping (a run in progress is cancelled and its containers removed)...\n',
  );
  await dashboard.close();
}

function untilSignal(): Promise<void> {
  return new Promise((done) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      done();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
