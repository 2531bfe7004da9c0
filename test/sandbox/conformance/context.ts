/** What the conformance suite's parts share: the sandbox under test and what it declares it can do. */
import type { ExecResult, Sandbox } from '../../../src/sandbox/types.js';

export interface SandboxCapabilities {
  /**
   * Commands really run, in a Linux userland (bash, coreutils, procps): exit codes and output,
   * users, timeouts, output caps, processes that live on and are killed. A fake that answers
   * commands without running them declares false.
   */
  shell: boolean;
  /** The kernel decides with each user's own permissions (owners, modes that deny). */
  permissions: boolean;
  /** `spawn` is there (it is optional in the interface). */
  spawn: boolean;
}

export interface Conformance {
  readonly can: SandboxCapabilities;
  /** The one sandbox of the suite, reset before every case. */
  readonly sb: Sandbox;
  /** Its cwd as it was opened, before any reset. */
  readonly cwdAtOpen: string;
}

/** Every byte value, for the round trips. */
export const ALL_BYTES = Buffer.from(Array.from({ length: 256 }, (_, i) => i));

/** Runs a bash script as root: a look at the sandbox independent of the agent's tools. */
export function asRoot(sb: Sandbox, script: string): Promise<ExecResult> {
  return sb.exec(['bash', '-c', script], { user: 'root', cwd: '/', timeoutMs: 30_000 });
}

/**
 * Whether a process whose command line matches `pattern` lives (pgrep -f, as root). Write the
 * pattern so it does not match itself (`sleep 301[7]`): the probe's own argv holds it.
 */
export async function alive(sb: Sandbox, pattern: string): Promise<boolean> {
  const r = await sb.exec(['pgrep', '-f', pattern], { user: 'root', cwd: '/', timeoutMs: 30_000 });
  if (r.exitCode !== 0 && r.exitCode !== 1) throw new Error(`pgrep failed: ${r.stderr}`);
  return r.exitCode === 0;
}
