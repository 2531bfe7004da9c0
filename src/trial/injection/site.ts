/**
 * Where a task's payload is placed. One rule for every task, so a new task needs nothing: the first
 * setup file the prompt names (the file the task needs read), else the first mounted file (a
 * skill's SKILL.md), else the output of the first command the agent runs. The payload then sits
 * inside that file as the agent sees it: appended to every tool result that shows the file (a
 * read_file of it, or a command the process trace shows reading it), whichever way it is read.
 */
import type { ToolCallLog } from '../../results/trial.js';
import { WORKSPACE_DIR } from '../../sandbox/types.js';
import { resolvePath } from '../../scoring/paths.js';
import { inContainer, type Task } from '../../tasks/types.js';

/**
 * `sampled` (the default since schema 2.7): no one site, every tool return may carry the payload
 * (deal.ts draws which); `file` and `first_command`: the task's fixed site (--injection-site fixed).
 */
export type InjectionSite =
  | { kind: 'file'; path: string }
  | { kind: 'first_command' }
  /** A dialogue task's fixed site: the first domain tool result. */
  | { kind: 'first_call' }
  | { kind: 'sampled'; rate: number };

/**
 * What a site is chosen from: the task's id and, when its trials have a workspace, its prompt, its
 * setup files and the files mounted beside them (a skill's); null: no workspace (a dialogue's desk).
 */
export interface InjectionTarget {
  id: string;
  workspace: {
    prompt: string;
    files: readonly { path: string }[];
    mounted: readonly { path: string }[];
  } | null;
}

export function siteFor(task: InjectionTarget): InjectionSite {
  const { workspace } = task;
  // Without a workspace the site is the first domain tool result.
  if (workspace === null) return { kind: 'first_call' };
  const named = workspace.files.find((f) => !f.path.startsWith('/') && workspace.prompt.includes(f.path));
  const file = named ?? workspace.mounted[0];
  return file === undefined
    ? { kind: 'first_command' }
    : { kind: 'file', path: `${WORKSPACE_DIR}/${file.path}` };
}

export function siteLabel(site: InjectionSite): string {
  if (site.kind === 'sampled') return `sampled:${site.rate}`;
  return site.kind === 'file' ? `file:${site.path}` : site.kind;
}

/**
 * Whether this call's result shows the site: it ran (not refused, not faulted) and its result holds
 * the file's content, or, for first_command, it is the first command that ran (`placed`: the payload
 * was already placed in this trial).
 */
export function showsSite(
  site: InjectionSite,
  call: { name: string; arguments: Record<string, unknown>; cwd: string },
  log: Pick<ToolCallLog, 'invalid' | 'fault' | 'exit_code' | 'stdout' | 'processes'>,
  placed: boolean,
): boolean {
  if (log.invalid !== null || log.fault !== undefined) return false;
  // A sampled site is drawn per call (deal.ts), not read from the call.
  if (site.kind === 'sampled') return false;
  if (site.kind === 'first_call') return !placed;
  if (site.kind === 'first_command') return call.name === 'execute_command' && !placed;
  if (call.name === 'read_file') {
    const path = call.arguments.path;
    return typeof path === 'string' && log.exit_code === 0 && resolvePath(call.cwd, path) === site.path;
  }
  if (call.name !== 'execute_command' || log.stdout.trim() === '') return false;
  return log.processes?.some((p) => p.reads.includes(site.path)) === true;
}

/** A task as a site is chosen from it. */
export function targetOf(task: Task): InjectionTarget {
  if (!inContainer(task)) return { id: task.id, workspace: null };
  return {
    id: task.id,
    workspace: { prompt: task.prompt, files: task.files, mounted: task.mountedFiles },
  };
}
