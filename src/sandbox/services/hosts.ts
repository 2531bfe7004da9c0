/** The services' names as the agent's container knows them. */
import type { PodSpec } from '../types.js';

/** The `--add-host` entries of the agent's container: every service's name on loopback (the services share its /etc/hosts). */
export function hostEntries(pod: PodSpec | undefined): string[] {
  return (pod?.services ?? []).map((s) => `${s.name}:127.0.0.1`);
}
