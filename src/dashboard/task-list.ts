/**
 * The tasks the run panel offers, the built-in ones (src/catalogue/built-in.ts). Loaded lazily and checked at
 * runtime, so a tree where the registry is missing or broken still serves every read-only view.
 */
interface TaskChoice {
  id: string;
  description: string;
  /** Manifest-driven skill tasks are offered apart from the built-in tasks. */
  kind: 'task' | 'skill';
  /** The task's domain (task.toml `domain`): the radar groups its spokes by it. */
  domain?: string;
}

/** Task id -> domain, for the tasks the registry knows. */
export function taskDomains(list: TaskList): Map<string, string> {
  return new Map(list.tasks.flatMap((t) => (t.domain === undefined ? [] : [[t.id, t.domain] as const])));
}

export interface TaskList {
  tasks: TaskChoice[];
  error: string | null;
}

const REGISTRY = '../catalogue/built-in.js';

export async function loadTaskList(registry: string = REGISTRY): Promise<TaskList> {
  try {
    const mod: unknown = await import(registry);
    const allTasks = (mod as { allTasks?: unknown }).allTasks;
    if (typeof allTasks !== 'function') return { tasks: [], error: 'the task registry has no allTasks()' };
    const list: unknown = allTasks();
    if (!Array.isArray(list)) return { tasks: [], error: 'allTasks() did not return a list' };
    return { tasks: list.flatMap(toChoice), error: null };
  } catch (err) {
    return {
      tasks: [],
      error: `task registry unavailable: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
}

function toChoice(t: unknown): TaskChoice[] {
  if (typeof t !== 'object' || t === null) return [];
  const o = t as {
    id?: unknown;
    source?: { from?: { noun?: unknown } };
    meta?: { description?: unknown; domain?: unknown };
  };
  if (typeof o.id !== 'string') return [];
  const description = typeof o.meta?.description === 'string' ? o.meta.description : '';
  // Where it comes from, as `list` says it: a skill folder's tasks are offered apart.
  const skill = o.source?.from?.noun === 'skill';
  const domain = typeof o.meta?.domain === 'string' ? { domain: o.meta.domain } : {};
  return [{ id: o.id, description, kind: skill ? 'skill' : 'task', ...domain }];
}
