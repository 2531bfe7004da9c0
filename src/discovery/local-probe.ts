/** The usual local servers, each on its default port of 127.0.0.1. */

import { InfraError } from '../util/errors.js';
import { detectServerKind } from './detect.js';
import type { ServerKind } from './types.js';

export const LOCAL_PORTS: readonly { port: number; label: string }[] = [
  { port: 8080, label: 'llama-server' },
  { port: 11434, label: 'Ollama' },
  { port: 1234, label: 'LM Studio' },
];

export interface FoundServer {
  kind: ServerKind;
  baseUrl: string;
}

/** Every server answering on the given ports (default: the usual ones), in port-list order. */
export async function probeLocal(
  o: { ports?: readonly number[]; timeoutMs?: number } = {},
): Promise<FoundServer[]> {
  const ports = o.ports ?? LOCAL_PORTS.map((p) => p.port);
  const found = await Promise.all(
    ports.map(async (port) => {
      const baseUrl = `http://127.0.0.1:${port}/v1`;
      try {
        return { kind: await detectServerKind(baseUrl, { timeoutMs: o.timeoutMs ?? 700 }), baseUrl };
      } catch (err) {
        if (err instanceof InfraError) return null;
        throw err;
      }
    }),
  );
  return found.filter((f) => f !== null);
}
