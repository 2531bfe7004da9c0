/** Every usual local server that answers, with its kind (the run's probe wants only the first with models). */
import { LOCAL_SERVERS } from '../models/probe.js';
import { InfraError } from '../util/errors.js';
import { detectServerKind } from './detect.js';
import type { ServerKind } from './types.js';

const LABELS: Record<string, string> = {
  'llama-server': 'llama-server',
  ollama: 'Ollama',
  lmstudio: 'LM Studio',
};

/** The ports of the run's probe list (one source for both), with names for messages. */
export const LOCAL_PORTS: readonly { port: number; label: string }[] = LOCAL_SERVERS.map((s) => ({
  port: Number(new URL(s.baseUrl).port),
  label: LABELS[s.kind] ?? s.kind,
}));

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
