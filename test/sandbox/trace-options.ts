/**
 * The strace options of the sandbox's exec wrapper (sandbox/exec-wrapper.sh), read from the script
 * itself, so that host-side traces in the tests (the local trials, the stdin tests) record exactly
 * the calls the sandbox records.
 */
import { readFileSync } from 'node:fs';

const WRAPPER = new URL('../../sandbox/exec-wrapper.sh', import.meta.url);

/** `-e trace=...` and `-e raw=...` as the wrapper passes them. */
export function wrapperTraceOptions(): string[] {
  const script = readFileSync(WRAPPER, 'utf8');
  const calls = [...script.matchAll(/^\s*calls\+?=(\S+)$/gm)].map((m) => (m[1] as string).replace(/^,/, ''));
  const raw = /-e '(raw=[^']+)'/.exec(script)?.[1];
  if (calls.length === 0 || raw === undefined) throw new Error('exec-wrapper.sh: no strace call list found');
  return ['-e', `trace=${calls.join(',')}`, '-e', raw];
}
