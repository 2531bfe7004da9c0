/** The models a ladder may climb, with what discovery knows about each (sizes above all). */
import { resolve } from 'node:path';
import { listGgufDir } from '../discovery/gguf-dir.js';
import { listModels } from '../discovery/servers.js';
import type { DiscoveredModel } from '../discovery/types.js';
import { probeLocalServers } from '../models/probe.js';
import { InfraError, UsageError } from '../util/errors.js';
import { redactUrl } from '../util/redact-url.js';

export type CandidateSource =
  /** `--models a,b,c` or `--models-from-server` ('all'); without a URL the usual local servers are probed. */
  | { kind: 'server'; baseUrl?: string; models: readonly string[] | 'all' }
  /** `--gguf-dir DIR`: every GGUF model file in the folder tree. */
  | { kind: 'gguf-dir'; dir: string };

export interface Candidates {
  models: DiscoveredModel[];
  /** The server the models are on; null for GGUF files. */
  baseUrl: string | null;
  /** Files that could not be read (skipped, and said). */
  problems: string[];
}

export async function findCandidates(source: CandidateSource): Promise<Candidates> {
  if (source.kind === 'gguf-dir') {
    // Absolute paths: they become `gguf:PATH` model specs and `{model}` in server commands.
    const dir = resolve(source.dir);
    const { models, problems } = await listGgufDir(dir);
    if (models.length === 0) throw new UsageError(`no readable GGUF model file in ${dir}`);
    return { models, baseUrl: null, problems };
  }
  const baseUrl = source.baseUrl ?? (await probeLocalServers({ timeoutMs: 700 }))?.baseUrl;
  if (baseUrl === undefined) {
    throw new InfraError(
      'no model server answers on 127.0.0.1 (llama-server :8080, Ollama :11434, LM Studio :1234): start one, or pass --base-url or --gguf-dir',
    );
  }
  const offered = await listModels(baseUrl);
  if (source.models === 'all') {
    if (offered.length === 0)
      throw new InfraError(`the model server at ${redactUrl(baseUrl)} lists no models`);
    return { models: offered, baseUrl, problems: [] };
  }
  const wanted = [...new Set(source.models)];
  const missing = wanted.filter((name) => !offered.some((m) => m.name === name));
  if (missing.length > 0) {
    throw new UsageError(
      `the model server at ${redactUrl(baseUrl)} does not offer ${missing.join(', ')}; it offers: ${offered.map((m) => m.name).join(', ') || 'nothing'}`,
    );
  }
  return { models: offered.filter((m) => wanted.includes(m.name)), baseUrl, problems: [] };
}
