/** `agent-bench models`: what each model server (or GGUF folder) offers, with where each value came from. */
import { detectServerKind } from '../../discovery/detect.js';
import { listGgufDir } from '../../discovery/gguf-dir.js';
import { DEFAULT_TIMEOUT_MS } from '../../discovery/http.js';
import { LOCAL_PORTS, probeLocal } from '../../discovery/local-probe.js';
import { MODELS_LEGEND, modelsTable } from '../../discovery/models-table.js';
import { orderBySize } from '../../discovery/order.js';
import { describeServerDetails, listModels, type ServerTarget } from '../../discovery/servers.js';
import type { DiscoveredModel, ServerDetails } from '../../discovery/types.js';
import { errorMessage, InfraError } from '../../util/errors.js';
import { redactUrl } from '../../util/redact-url.js';

export interface ModelsOptions {
  baseUrl?: string;
  ggufDir?: string;
  json?: boolean;
  timeoutMs?: number;
  /** Ports of 127.0.0.1 to probe without --base-url (tests point these at fake servers). */
  ports?: readonly number[];
  write?: (text: string) => void;
}

interface Section {
  source: string;
  /** What the server says about itself (version, slots, context); null for a GGUF folder or when it says nothing. */
  server: ServerDetails | null;
  models: DiscoveredModel[];
  problems: string[];
}

export async function modelsCommand(o: ModelsOptions): Promise<void> {
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const sections: Section[] = [];
  if (o.ggufDir !== undefined) {
    const { models, problems } = await listGgufDir(o.ggufDir);
    sections.push({ source: `GGUF files in ${o.ggufDir}`, server: null, models, problems });
  }
  if (o.baseUrl !== undefined) {
    const kind = await detectServerKind(o.baseUrl, { timeoutMs });
    const target = { kind, baseUrl: o.baseUrl };
    const models = await listModels(target, { timeoutMs });
    const server = await serverFacts(target, models, timeoutMs);
    sections.push({ source: `${kind} at ${redactUrl(o.baseUrl)}`, server, models, problems: [] });
  } else if (o.ggufDir === undefined) {
    const found = await probeLocal({ ...(o.ports === undefined ? {} : { ports: o.ports }) });
    if (found.length === 0) {
      const where = LOCAL_PORTS.map((p) => `${p.label} :${p.port}`).join(', ');
      throw new InfraError(
        `no model server answers on 127.0.0.1 (${where}): start one, or pass --base-url or --gguf-dir`,
      );
    }
    for (const server of found) {
      try {
        const models = await listModels(server, { timeoutMs });
        sections.push({
          source: `${server.kind} at ${server.baseUrl}`,
          server: await serverFacts(server, models, timeoutMs),
          models,
          problems: [],
        });
      } catch (err) {
        if (!(err instanceof InfraError)) throw err;
        sections.push({
          source: `${server.kind} at ${server.baseUrl}`,
          server: null,
          models: [],
          problems: [errorMessage(err)],
        });
      }
    }
  }
  const ordered = sections.map((s) => ({ ...s, models: orderBySize(s.models) }));
  const write = o.write ?? ((text: string) => void process.stdout.write(text));
  if (o.json === true) {
    write(`${JSON.stringify(ordered, null, 2)}\n`);
    return;
  }
  const tables = ordered.map(
    (s) =>
      `${s.source}\n${modelsTable(s.models)}${serverLine(s)}${s.problems.map((p) => `  ! ${p}\n`).join('')}`,
  );
  write(`${tables.join('\n')}\n${MODELS_LEGEND}\n`);
}

/** The server's own facts, asked about its first model; null when it says nothing (it did list, so it answers). */
async function serverFacts(
  target: ServerTarget,
  models: readonly DiscoveredModel[],
  timeoutMs: number,
): Promise<ServerDetails | null> {
  const first = models[0];
  if (first === undefined) return null;
  try {
    return await describeServerDetails(target, first.name, { timeoutMs });
  } catch (err) {
    if (err instanceof InfraError) return null;
    throw err;
  }
}

/** `  server: version b6100 · 4 slots · context 8192 per request` (the context of its first model when it lists several). */
function serverLine(s: Section): string {
  const d = s.server;
  if (d === null) return '';
  const facts = [
    d.version === null ? null : `version ${d.version}`,
    d.parallelSlots === null ? null : `${d.parallelSlots} slot${d.parallelSlots === 1 ? '' : 's'}`,
    d.contextLength === null
      ? null
      : `context ${d.contextLength} per request${s.models.length > 1 ? ` (${s.models[0]?.name})` : ''}`,
  ].filter((f) => f !== null);
  return facts.length === 0 ? '' : `  server: ${facts.join(' · ')}\n`;
}
