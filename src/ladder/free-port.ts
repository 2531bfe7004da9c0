import { type AddressInfo, createServer } from 'node:net';

/**
 * A port of 127.0.0.1 that is free now. Another process could take it before the server binds it;
 * the server then exits, and its rung is recorded as not started rather than hanging.
 */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', resolve);
  });
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
