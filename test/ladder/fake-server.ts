/** `--server-cmd` templates that start test/helpers/fake-llama-server.mjs with a variant's flags. */
import { fileURLToPath } from 'node:url';
import { shellQuote } from '../../src/ladder/server-command.js';

/** The shell words that run the fake server: this very node, whatever PATH says. */
export const FAKE_SERVER = [
  process.execPath,
  fileURLToPath(new URL('../helpers/fake-llama-server.mjs', import.meta.url)),
]
  .map(shellQuote)
  .join(' ');

export function fakeServerCmd(flags = ''): string {
  return `${FAKE_SERVER} -m {model} --port {port} ${flags}`.trimEnd();
}

/** The fake server logs `pid N` first: the process to check for after a failed start. */
export function loggedPid(log: string): number {
  const m = /fake-llama-server: pid (\d+)/.exec(log);
  if (m?.[1] === undefined) throw new Error(`no pid in the log:\n${log}`);
  return Number(m[1]);
}

/** Whether the process is gone (ESRCH), as opposed to running or a zombie not yet reaped. */
export function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return err instanceof Error && 'code' in err && err.code === 'ESRCH';
  }
}
