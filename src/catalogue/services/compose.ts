/**
 * Harbor's environment/docker-compose.yaml, in the merge-on-top form Harbor gives it: `main` is
 * the agent's container (Harbor configures it; here it is agent-bench's sandbox, so of its
 * overrides only `depends_on` means something: every service is ready before the agent's first
 * turn anyway), every other service is a sidecar of the pod (service-entry.ts).
 */
import { parse } from 'yaml';
import { MAIN_SERVICE } from '../../sandbox/services/order.js';
import type { ServiceDecl } from '../../sandbox/types.js';
import { type Findings, isTable, readServiceEntry } from './service-entry.js';

/** Where Harbor looks for it, in environment/. */
export const COMPOSE_FILE = 'docker-compose.yaml';

/** Top-level keys that describe nothing the pod would do differently. */
const QUIET_TOP = new Set(['version', 'name', 'services']);

export function composeServices(text: string, found: Findings): ServiceDecl[] {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (err) {
    found.problems.push(`is not YAML: ${(err instanceof Error ? err.message : String(err)).split('\n')[0]}`);
    return [];
  }
  if (!isTable(doc) || !isTable(doc.services)) {
    found.problems.push('services: must be a table of services');
    return [];
  }
  const top = Object.keys(doc).filter((k) => !QUIET_TOP.has(k) && !k.startsWith('x-'));
  if (top.length > 0)
    found.notes.push(`agent-bench ignores ${top.join(', ')} (the pod has no Docker networks or volumes)`);
  const out: ServiceDecl[] = [];
  let mainWaitsFor: string[] = [];
  for (const [name, raw] of Object.entries(doc.services)) {
    if (name === MAIN_SERVICE) {
      mainWaitsFor = readMain(raw, found);
      continue;
    }
    const service = readServiceEntry(name, raw, `services.${name}`, found);
    if (service !== null) out.push(service);
  }
  // Checked once every service is read: compose lets main come first.
  for (const d of mainWaitsFor)
    if (!Object.hasOwn(doc.services, d))
      found.problems.push(`services.main.depends_on: "${d}" is no service of the file`);
  return out;
}

/** `main`'s overrides: what it depends on (checked by the caller); the rest is the sandbox's to decide. */
function readMain(raw: unknown, found: Findings): string[] {
  if (raw === null || raw === undefined) return [];
  if (!isTable(raw)) {
    found.problems.push('services.main: must be a table');
    return [];
  }
  const { depends_on: dependsOn, ...rest } = raw;
  const others = Object.keys(rest).filter((k) => !k.startsWith('x-'));
  if (others.length > 0)
    found.notes.push(
      `services.main: agent-bench ignores ${others.join(', ')} (the agent's container is agent-bench's sandbox)`,
    );
  if (Array.isArray(dependsOn)) return dependsOn.map(String);
  return isTable(dependsOn) ? Object.keys(dependsOn) : [];
}
