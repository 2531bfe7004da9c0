const DEFAULT_API_KEY_ENV = 'AGENT_BENCH_API_KEY';
/** Local servers ignore the key, but the client needs one. */
export const NO_API_KEY = 'none';

/**
 * The key from the variable named by `apiKeyEnv`; with the default name, OPENAI_API_KEY is the
 * fallback. An explicitly named variable that is unset means no key, not someone else's key.
 */
export function resolveApiKey(env: NodeJS.ProcessEnv, apiKeyEnv?: string): string {
  const name = apiKeyEnv ?? DEFAULT_API_KEY_ENV;
  const named = env[name];
  if (named !== undefined && named !== '') return named;
  const fallback = name === DEFAULT_API_KEY_ENV ? env.OPENAI_API_KEY : undefined;
  return fallback !== undefined && fallback !== '' ? fallback : NO_API_KEY;
}

/** Removes the key from text that may echo it back (some servers quote the key they rejected). */
export function redactKey(text: string, apiKey: string): string {
  if (apiKey === NO_API_KEY || apiKey.length < 4) return text;
  return text.split(apiKey).join('[redacted]');
}
