/**
 * Waiting for a spawned server to be ready: llama-server answers `/health` with 503 while it loads the
 * model and 200 once it serves; a server without `/health` (404) is ready when `/v1/models` answers.
 */
import { setTimeout as sleep } from 'node:timers/promises';

const PROBE_TIMEOUT_MS = 2000;
const MAX_INTERVAL_MS = 500;

/** Resolves once the server at `root` (`http://127.0.0.1:PORT`) is ready; rejects only when `signal` aborts. */
export async function waitHealthy(root: string, signal: AbortSignal): Promise<void> {
  let interval = 100;
  for (;;) {
    signal.throwIfAborted();
    if (await isHealthy(root, signal)) return;
    await sleep(interval, undefined, { signal });
    interval = Math.min(interval * 2, MAX_INTERVAL_MS);
  }
}

async function isHealthy(root: string, signal: AbortSignal): Promise<boolean> {
  const health = await status(`${root}/health`, signal);
  if (health === 200) return true;
  if (health !== 404) return false; // Not listening yet, or 503 while loading.
  return (await status(`${root}/v1/models`, signal)) === 200;
}

/** The HTTP status, or null when nothing answers (yet). */
async function status(url: string, signal: AbortSignal): Promise<number | null> {
  try {
    const res = await fetch(url, {
      signal: AbortSignal.any([signal, AbortSignal.timeout(PROBE_TIMEOUT_MS)]),
    });
    await res.body?.cancel();
    return res.status;
  } catch {
    return null;
  }
}
