// How a run was made, from its results file: the sampling settings and run limits, and what the model
// server said about itself. Unknown stays "unknown" (older files and some servers leave fields out).
import { el } from './dom.js';

/**
 * @typedef {{ temperature?: number, seed?: number, top_p?: number, max_tokens?: number }} Sampling
 * @typedef {{ k?: number, early_stop?: boolean, max_turns?: number | null, command_timeout_sec?: number,
 *   fresh_container?: boolean, limits?: { memory_mb: number, pids: number, cpus: number }, sampling?: Sampling }} Settings
 * @typedef {{ kind: string, version: string | null, context_length: number | null, parallel_slots: number | null,
 *   tool_support: boolean | null }} Server
 * @typedef {{ sampling?: Sampling, base_url?: string | null, server?: Server | null, model?: string,
 *   sandbox_image?: string, image_id?: string | null, harness_version?: string, node_version?: string,
 *   docker_version?: string | null, parallel?: number }} Environment
 */

/** @param {unknown} v */
const shown = (v) => (v === null || v === undefined ? 'unknown' : String(v));

/** @param {Sampling | undefined} s */
function samplingText(s) {
  if (s === undefined) return 'unknown';
  const parts = [`temperature ${shown(s.temperature)}`];
  parts.push(s.seed === undefined ? 'no seed' : `seed ${s.seed}`);
  parts.push(s.top_p === undefined ? 'top_p: server default' : `top_p ${s.top_p}`);
  parts.push(s.max_tokens === undefined ? 'max_tokens: server default' : `max_tokens ${s.max_tokens}`);
  return parts.join(' · ');
}

/** @param {Settings | undefined} settings @param {Environment | undefined} env @returns {[string, string][]} */
export function runFacts(settings, env) {
  const s = settings ?? {};
  const e = env ?? {};
  const server = e.server ?? null;
  const limits = s.limits;
  return [
    ['sampling', samplingText(e.sampling ?? s.sampling)],
    [
      'limits',
      `max turns ${s.max_turns === null ? "the task's own" : shown(s.max_turns)} · command timeout ${shown(s.command_timeout_sec)}s · ` +
        (limits === undefined
          ? 'sandbox limits unknown'
          : `${limits.memory_mb} MB, ${limits.pids} pids, ${limits.cpus} CPUs`) +
        ` · ${s.fresh_container ? 'fresh container per trial' : 'container reused between trials'}` +
        ` · ${e.parallel ?? 1} trial(s) at once`,
    ],
    [
      'server',
      server === null ? 'did not say what it is' : `${server.kind} ${server.version ?? '(version unknown)'}`,
    ],
    ['served from', shown(e.base_url)],
    [
      'server facts',
      server === null
        ? 'unknown'
        : `context ${shown(server.context_length)} tokens · ${shown(server.parallel_slots)} slot(s) · tool calls in the template: ${
            server.tool_support === null ? 'unknown' : server.tool_support ? 'yes' : 'no (text-format parser)'
          }`,
    ],
    [
      'harness',
      `agent-bench ${shown(e.harness_version)} · node ${shown(e.node_version)} · docker ${shown(e.docker_version)}`,
    ],
    ['sandbox image', `${shown(e.sandbox_image)}${e.image_id ? ` (${e.image_id.slice(0, 19)})` : ''}`],
  ];
}

/** @param {[string, string][]} rows */
export function pairs(rows) {
  return rows.flatMap(([k, v]) => [el('span', { class: 'muted' }, k), el('span', {}, v)]);
}
