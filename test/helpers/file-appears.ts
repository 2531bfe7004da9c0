/**
 * Waits for a file that a global setup renames into place when its background work ends (so that,
 * once its name is there, it is whole): the slow request, the whole-suite validate.
 */
import { existsSync, watch } from 'node:fs';
import { dirname } from 'node:path';

export function fileAppears(file: string, timeoutMs: number, what: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const watcher = watch(dirname(file), () => {
      if (existsSync(file)) done();
    });
    const timer = setTimeout(() => {
      watcher.close();
      reject(new Error(`${what} never ended (${file})`));
    }, timeoutMs);
    const done = (): void => {
      clearTimeout(timer);
      watcher.close();
      resolve();
    };
    // Looked at once the watcher runs, so a rename just before it is not missed.
    if (existsSync(file)) done();
  });
}
