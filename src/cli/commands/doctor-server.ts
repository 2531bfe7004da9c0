/**
 * doctor's model-server checks: that a server answers and lists models, then what a run would meet
 * with the model it would use — tools refused (llama-server without --jinja) or a context smaller
 * than the suite needs. Each finding carries its fix.
 */
import { type ServerFinding, serverFindings } from '../../discovery/server-findings.js';
import { describeServerDetails } from '../../discovery/servers.js';
import { probeToolRequest } from '../../discovery/tool-probe.js';
import { NO_API_KEY, resolveApiKey } from '../../models/api-key.js';
import { normalizeBaseUrl, requestUrl, serverAuth } from '../../models/base-url.js';
import { checkServer, LOCAL_SERVERS, type ProbeTarget, probeLocalServers } from '../../models/probe.js';
import { errorMessage } from '../../util/errors.js';
import { redactUrl } from '../../util/redact-url.js';

export interface ServerCheckOptions {
  baseUrl?: string;
  /** The model to check (default: the first the server lists, as a run picks). */
  model?: string;
  env?: NodeJS.ProcessEnv;
  /** Where to look without --base-url (tests point it at a scripted server). */
  localServers?: readonly ProbeTarget[];
  /** A tiny request can still take a while on CPU (prompt processing, a model loading on demand). */
  toolProbeTimeoutMs?: number;
}

/** The findings about the model server, in the order to print them. */
export async function checkModelServer(o: ServerCheckOptions): Promise<ServerFinding[]> {
  const env = o.env ?? process.env;
  let url: string;
  let models: string[];
  let findings: ServerFinding[];
  if (o.baseUrl !== undefined) {
    try {
      models = await checkServer(o.baseUrl, { env });
    } catch (err) {
      return [
        {
          level: 'fail',
          what: 'model server',
          detail: errorMessage(err),
          fix: 'start the server or fix --base-url',
        },
      ];
    }
    url = normalizeBaseUrl(o.baseUrl);
    findings = [
      server(
        'ok',
        `${redactUrl(o.baseUrl)} serves ${models.length} model(s): ${models.slice(0, 5).join(', ')}`,
      ),
    ];
  } else {
    const targets = o.localServers ?? LOCAL_SERVERS;
    const found = await probeLocalServers({ timeoutMs: 700, targets });
    if (found === null) {
      const where = targets.map((t) => `:${new URL(t.baseUrl).port} ${t.kind}`).join(', ');
      return [
        {
          level: 'note',
          what: 'model server',
          detail: `none on 127.0.0.1 (${where})`,
          fix: 'start one (e.g. `llama-server -m model.gguf --jinja`), or runs fall back to the reference agent (--model oracle)',
        },
      ];
    }
    url = found.baseUrl;
    models = found.models;
    findings = [server('ok', `${found.kind} at ${found.baseUrl}: ${models.slice(0, 5).join(', ')}`)];
  }
  const model = o.model ?? models[0];
  if (model === undefined)
    return [
      ...findings,
      { level: 'fail', what: 'model', detail: 'the server lists no models', fix: 'load one' },
    ];
  if (!models.includes(model)) {
    return [
      ...findings,
      {
        level: 'fail',
        what: 'model',
        detail: `"${model}" is not listed`,
        fix: `pass one of: ${models.join(', ')}`,
      },
    ];
  }
  return [
    ...findings,
    ...(await modelFindings(o.baseUrl ?? url, model, env, o.toolProbeTimeoutMs ?? 60_000)),
  ];
}

async function modelFindings(
  given: string,
  model: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<ServerFinding[]> {
  const base = normalizeBaseUrl(given);
  const auth = serverAuth(given);
  const key = resolveApiKey(env);
  const headers = { ...(key === NO_API_KEY ? {} : { authorization: `Bearer ${key}` }), ...auth.headers };
  try {
    const [details, tools] = await Promise.all([
      describeServerDetails(base, model),
      probeToolRequest(requestUrl(base, '/chat/completions', auth), model, { timeoutMs, headers }),
    ]);
    return serverFindings(details, tools).map((f) => ({ ...f, what: `${f.what} (${model})` }));
  } catch (err) {
    return [
      { level: 'note', what: 'server details', detail: errorMessage(err), fix: 'runs warn about the same' },
    ];
  }
}

function server(level: ServerFinding['level'], detail: string): ServerFinding {
  return { level, what: 'model server', detail, fix: null };
}
