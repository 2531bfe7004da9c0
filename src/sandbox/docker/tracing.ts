/**
 * Whether this engine lets the sandbox trace the agent's commands (sandbox/exec-wrapper.sh). It
 * needs ptrace, which Docker's default seccomp profile allows on kernels since 4.8 but stricter
 * profiles or runtimes (gVisor) may not: a traced `/bin/true` run as the agent must come back
 * with a record of itself, through the same wrapper and parser every command uses.
 */
import type Docker from 'dockerode';
import { tool } from '../tools.js';
import { managedExec } from './exec.js';

/** null when tracing works, otherwise why not. */
export async function tracingProblem(container: Docker.Container): Promise<string | null> {
  const r = await managedExec(container, {
    argv: [tool('true')],
    user: 'agent',
    cwd: '/',
    timeoutMs: 20_000,
    maxOutputBytes: 4096,
    trace: true,
  });
  if (r.trace?.processes.some((p) => p.exe === tool('true') && p.exitCode === 0)) return null;
  const said = r.stderr.trim().split('\n').slice(-1)[0];
  return `a traced ${tool('true')} ${r.trace === undefined ? 'came back without a trace' : 'is missing from its trace'}${said ? ` (${said})` : ''}`;
}
