/** Finding and checking local model servers before a run. */
import { z } from 'zod';
import { InfraError } from '../util/errors.js';
import { NO_API_KEY, resolveApiKey } from './api-key.js';
import { normalizeBaseUrl, requestUrl, type ServerAuth, serverAuth } from './base-url.js';
import { errnoCode } from './request-errors.js';

type LocalServerKind = 'llama-server' | 'ollama' | 'lmstudio';

export interface ProbeTarget {
  baseUrl: string;
  kind: LocalServerKind;
}

export interface FoundServer extends ProbeTarget {
  models: string[];
}

/** Loopback only: a probe must never reach out to the network on its own. */
export const LOCAL_SERVERS: readonly ProbeTarget[] = [
  { baseUrl: 'http://127.0.0.1:8080/v1', kind: 'llama-server' },
  { baseUrl: 'http://127.0.0.1:11434/v1', kind: 'ollama' },
  { baseUrl: 'http://127.0.0.1:1234/v1', kind: 'lmstudio' },
];

const ModelList = z.object({ data: z.array(z.object({ id: z.string() })) });

/** The first target (in order) that lists at least one model, or null. Targets are asked in parallel. */
export async function probeLocalServers(options: {
  timeoutMs: number;
  targets?: readonly ProbeTarget[];
}): Promise<FoundServer | null> {
  const targets = options.targets ?? LOCAL_SERVERS;
  const answers = await Promise.all(
    targets.map(async (target) => {
      try {
        const models = await listModels(target.baseUrl, options.timeoutMs, {}, NO_AUTH);
        return models.length > 0 ? { ...target, models } : null;
      } catch {
        return null;
      }
    }),
  );
  return answers.find((a) => a !== null) ?? null;
}

export interface CheckOptions {
  timeoutMs?: number;
  apiKeyEnv?: string;
  env?: NodeJS.ProcessEnv;
}

/** The models a server lists; throws InfraError (exit 3) with one line saying what to do when it cannot. */
export async function checkServer(baseUrl: string, options: CheckOptions = {}): Promise<string[]> {
  const url = normalizeBaseUrl(baseUrl);
  const timeoutMs = options.timeoutMs ?? 5000;
  const apiKey = resolveApiKey(options.env ?? process.env, options.apiKeyEnv);
  const headers: Record<string, string> = apiKey === NO_API_KEY ? {} : { authorization: `Bearer ${apiKey}` };
  try {
    return await listModels(url, timeoutMs, headers, serverAuth(baseUrl));
  } catch (err) {
    if (err instanceof InfraError) throw err;
    throw new InfraError(
      `model server at ${url} is unreachable: ${unreachableReason(err, timeoutMs)} — start it or pass --base-url`,
    );
  }
}

const NO_AUTH: ServerAuth = { headers: {}, query: {} };

/** `auth`: what the user's URL carries (its Basic credentials win over the API key). */
async function listModels(
  baseUrl: string,
  timeoutMs: number,
  headers: Record<string, string>,
  auth: ServerAuth,
): Promise<string[]> {
  const response = await fetch(requestUrl(baseUrl, '/models', auth), {
    headers: { ...headers, ...auth.headers },
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!response.ok) {
    const hint = response.status === 401 || response.status === 403 ? ': check the API key variable' : '';
    throw new InfraError(`model server at ${baseUrl} answered HTTP ${response.status} to GET /models${hint}`);
  }
  const list = ModelList.safeParse(await response.json().catch(() => null));
  if (!list.success)
    throw new InfraError(`model server at ${baseUrl} sent an unreadable model list (GET /models)`);
  return list.data.data.map((m) => m.id);
}

function unreachableReason(err: unknown, timeoutMs: number): string {
  if (err instanceof Error && err.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  return errnoCode(err) ?? (err instanceof Error ? err.message : String(err));
}
