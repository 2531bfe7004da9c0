/** The sandbox's users: numbers each exec sets (the sandbox image also names them; a task's own image need not). */
import { CHECKER_HOME, type SandboxUser } from '../types.js';

export const AGENT_UID = 1000;
export const CHECKER_UID = 1001;

/** Each user has a group of the same number. */
export function uidOf(user: SandboxUser): number {
  return user === 'agent' ? AGENT_UID : user === 'checker' ? CHECKER_UID : 0;
}

/** HOME, USER, LOGNAME (and the checker's TMPDIR: /tmp is the agent's). */
export function loginEnv(user: SandboxUser): Record<string, string> {
  switch (user) {
    case 'agent':
      return { HOME: '/tmp', USER: 'agent', LOGNAME: 'agent' };
    case 'checker':
      return { HOME: CHECKER_HOME, TMPDIR: CHECKER_HOME, USER: 'checker', LOGNAME: 'checker' };
    case 'root':
      return { HOME: '/root', USER: 'root', LOGNAME: 'root' };
  }
}
