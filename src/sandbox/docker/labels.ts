/**
 * Labels on every sandbox container, so a later run can tell which leftovers are orphans: the
 * creating process (host + pid) and the creation time decide it (see sweep.ts).
 */
import { hostname } from 'node:os';

export const LABEL = {
  sandbox: 'agent-bench.sandbox',
  run: 'agent-bench.run',
  task: 'agent-bench.task',
  host: 'agent-bench.host',
  pid: 'agent-bench.pid',
  created: 'agent-bench.created',
} as const;

/** What the caller may say about a sandbox; free-form, recorded for humans and for sweeping. */
export interface SandboxLabels {
  run?: string;
  task?: string;
}

export function sandboxLabels(labels: SandboxLabels, now: Date = new Date()): Record<string, string> {
  return {
    [LABEL.sandbox]: '1',
    ...(labels.run === undefined ? {} : { [LABEL.run]: labels.run }),
    ...(labels.task === undefined ? {} : { [LABEL.task]: labels.task }),
    [LABEL.host]: hostname(),
    [LABEL.pid]: String(process.pid),
    [LABEL.created]: now.toISOString(),
  };
}
