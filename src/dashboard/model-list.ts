/**
 * Models for the run panel, asked server-side of the configured model server only: the page never
 * chooses the URL (the old dashboard proxied any URL it was given). The API key stays on the server.
 * Without --base-url, the local servers a run would find are probed the way the run probes them
 * (the first that lists a model), so the panel offers what `run` without --base-url would use.
 */
import { NO_API_KEY, resolveApiKey } from '../models/api-key.js';
import { LOCAL_SERVERS, type ProbeTarget, probeLocalServers } from '../models/probe.js';
import { withoutCredentials } from '../report/summary.js';

export interface ModelList {
  /** What the server lists, sorted. */
  models: string[];
  /** Built into agent-bench, always available. */
  builtin: string[];
  base_url: string | null;
  error: string | null;
}

const TIMEOUT_MS = 4000;

export async function fetchModelList(
  baseUrl: string | null,
  env: NodeJS.ProcessEnv = process.env,
  localServers: readonly ProbeTarget[] = LOCAL_SERVERS,
): Promise<ModelList> {
  if (baseUrl === null) return localModelList(localServers);
  const base = { builtin: ['oracle'], base_url: withoutCredentials(baseUrl) };
  try {
    const key = resolveApiKey(env);
    const res = await fetch(`${baseUrl}/models`, {
      signal: AbortSignal.timeout(TIMEOUT_MS),
      headers: key === NO_API_KEY ? {} : { authorization: `Bearer ${key}` },
    });
    if (!res.ok) return { ...base, models: [], error: `model server answered HTTP ${res.status}` };
    const body = (await res.json()) as { data?: unknown };
    const ids = Array.isArray(body.data)
      ? body.data.flatMap((m: unknown) => {
          const id = (m as { id?: unknown } | null)?.id;
          return typeof id === 'string' ? [id] : [];
        })
      : [];
    return { ...base, models: [...new Set(ids)].sort(), error: null };
  } catch (err) {
    const why =
      err instanceof Error && err.name === 'TimeoutError'
        ? `no answer in ${TIMEOUT_MS / 1000}s`
        : 'unreachable';
    return { ...base, models: [], error: `model server ${base.base_url ?? ''} ${why}` };
  }
}

/** What a run without --base-url would find: the first local server listing a model. */
async function localModelList(targets: readonly ProbeTarget[]): Promise<ModelList> {
  const found = await probeLocalServers({ timeoutMs: 700, targets });
  if (found === null) {
    const ports = targets.map((t) => `:${new URL(t.baseUrl).port}`).join(', ') || 'no ports probed';
    return {
      builtin: ['oracle'],
      base_url: null,
      models: [],
      error: `no model server answers on 127.0.0.1 (${ports}): start one, or \`agent-bench serve --base-url URL\``,
    };
  }
  return {
    builtin: ['oracle'],
    base_url: found.baseUrl,
    models: [...new Set(found.models)].sort(),
    error: null,
  };
}
