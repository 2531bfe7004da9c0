import { checkEngine, ensureImage } from '../sandbox/index.js';

/**
 * Docker and the sandbox image, checked once before any model is loaded: without them no rung can
 * run, and finding out after a 20 GiB model has loaded (once per rung) wastes everyone's time.
 */
export async function preflight(note: (line: string) => void): Promise<void> {
  await checkEngine();
  await ensureImage({ onProgress: note });
}
