/** `agent-bench models`: what each model server (or GGUF folder) offers, with where each value came from. */
import { detectServerKind } from '../../discovery/detect.js';
import { listGgufDir } from '../../discovery/gguf-dir.js';
import { DEFAULT_TIMEOUT_MS } from '../../discovery/http.js';
import { LOCAL_PORTS, probeLocal } from '../../discovery/local-probe.js';
import { MODELS_LEGEND, modelsTable } from '../../discovery/models-table.js';
import { orderBySize } from '../../discovery/order.js';
import { listModels } from '../../discovery/servers.js';
import type { DiscoveredModel } from '../../discovery/types.js';
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
  models: DiscoveredModel[];
  problems: string[];
}

export async function modelsCommand(o: ModelsOptions): Promise<void> {
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const sections: Section[] = [];
  if (o.ggufDir !== undefined) {
    const { models, problems } = await listGgufDir(o.ggufDir);
    sections.push({ source: `GGUF files in ${o.ggufDir}`, models, problems });
  }
  if (o.baseUrl !== undefined) {
    const kind = await detectServerKind(o.baseUrl, { timeoutMs });
    const models = await listModels({ kind, baseUrl: o.baseUrl }, { timeoutMs });
    sections.push({ source: `${kind} at ${redactUrl(o.baseUrl)}`, models, problems: [] });
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
        sections.push({
          source: `${server.kind} at ${server.baseUrl}`,
          models: await listModels(server, { timeoutMs }),
          problems: [],
        });
      } catch (err) {
        if (!(err instanceof InfraError)) throw err;
        sections.push({
          source: `${server.kind} at ${server.baseUrl}`,
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
    (s) => `${s.source}\n${modelsTable(s.models)}${s.problems.map((p) => `  ! ${p}\n`).join('')}`,
  );
  write(`${tables.join('\n')}\n${MODELS_LEGEND}\n`);
}
