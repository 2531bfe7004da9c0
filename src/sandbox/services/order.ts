/**
 * What makes a set of services a pod, checked before anything starts: names that can be host
 * names, no two services on one port (they share one network namespace), dependencies that exist
 * and do not go round; and the order they start in (each after what it depends on, otherwise as
 * declared).
 */

export type PodOrder<T> = { ok: true; order: T[] } | { ok: false; problem: string };

interface Declared {
  name: string;
  expose: readonly number[];
  dependsOn: readonly string[];
}

/** The agent's container: the name compose gives it, and no service may take. */
export const MAIN_SERVICE = 'main';
const HOST_NAME = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;

export function podOrder<T extends Declared>(services: readonly T[]): PodOrder<T> {
  const byName = new Map<string, T>();
  const ports = new Map<number, string>();
  for (const s of services) {
    if (!HOST_NAME.test(s.name))
      return refuse(`service "${s.name}": its name must be a host name (letters, digits, -)`);
    if (s.name === MAIN_SERVICE || byName.has(s.name))
      return refuse(
        `service "${s.name}": the name is taken${s.name === MAIN_SERVICE ? ' (main is the agent’s container)' : ''}`,
      );
    byName.set(s.name, s);
    for (const port of s.expose) {
      const other = ports.get(port);
      if (other !== undefined)
        return refuse(
          `services "${other}" and "${s.name}" both expose port ${port}: they share one network namespace, so only one can listen on it`,
        );
      ports.set(port, s.name);
    }
  }
  for (const s of services)
    for (const d of s.dependsOn)
      if (!byName.has(d))
        return refuse(`service "${s.name}" depends on "${d}", which is no service of the task`);
  const order: T[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (s: T, path: string[]): string | null => {
    const seen = state.get(s.name);
    if (seen === 'done') return null;
    if (seen === 'visiting')
      return `the services depend on each other in a circle: ${[...path, s.name].join(' → ')}`;
    state.set(s.name, 'visiting');
    for (const d of s.dependsOn) {
      const problem = visit(byName.get(d) as T, [...path, s.name]);
      if (problem !== null) return problem;
    }
    state.set(s.name, 'done');
    order.push(s);
    return null;
  };
  for (const s of services) {
    const problem = visit(s, []);
    if (problem !== null) return refuse(problem);
  }
  return { ok: true, order };
}

function refuse(problem: string): { ok: false; problem: string } {
  return { ok: false, problem };
}
