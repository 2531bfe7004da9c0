/**
 * A native task.toml's `[[services]]`: each entry a table with the service's `name` and compose's
 * keys (service-entry.ts), `stateless = true` standing for compose's `x-agent-bench.stateless`.
 */
import type { ServiceDecl } from '../../sandbox/types.js';
import { type Findings, isTable, readServiceEntry } from './service-entry.js';

export function readNativeServices(value: unknown, found: Findings): ServiceDecl[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    found.problems.push('services: must be a list of tables ([[services]])');
    return [];
  }
  const out: ServiceDecl[] = [];
  value.forEach((entry, i) => {
    const where = `services[${i}]`;
    if (!isTable(entry) || typeof entry.name !== 'string') {
      found.problems.push(`${where}.name: each service needs a name`);
      return;
    }
    const { name, stateless, ...rest } = entry;
    if (stateless !== undefined && typeof stateless !== 'boolean') {
      found.problems.push(`${where}.stateless: must be true or false`);
      return;
    }
    const compose = stateless === undefined ? rest : { ...rest, 'x-agent-bench': { stateless } };
    const service = readServiceEntry(name, compose, where, found);
    if (service !== null) out.push(service);
  });
  return out;
}
