/**
 * The results schema version: "MAJOR.MINOR". A minor version only adds fields, so this reader reads
 * every version from OLDEST_READABLE up to its own; a newer file is refused rather than misread.
 * 2.1 added optional fields only: `absence` on trial flags and flag summaries, tool calls' process trace.
 * 2.2 added optional fields only: a trial's `error`, turn logs' `request_error` and `text_truncated`,
 * tool calls' `arguments_truncated`, traced processes' `earlier_runs` (exec chains) and `stdin_file`,
 * the environment's `parallel`.
 * 2.3 added optional fields only: a result's `condition` (absent: clean) and `optimal_steps`, tool calls' `fault` and
 * `injection`, turn logs' `timings`, a trial's `safety`. A 2.2 reader would take a noisy result for a
 * clean one, so the version says it. Also a result's `shard` (a shard's part of a run split with
 * --shard) and `merged` (the shard files `results merge` made it from). Also dialogue tasks' turn
 * logs' `user_reply` and a trial's `dialogue`.
 * 2.4 added a trial's `end_reason` (why its turns ended, an enum), which every reader needs: older files
 * get it from what they did store when they are read (upgrade.ts).
 * 2.5 added a trial's `agent_fault` (a failure the agent could have caused, counted as its failure) and
 * the end reason `tool_stalled`: a 2.4 reader would not know the reason.
 * 2.6 added optional fields only: a Harbor trial's `rewards` (its verifier's named metrics from
 * reward.json) and `harbor_verifier` (test.sh's exit code and output's end).
 * 2.7 added the end reason and agent fault `request_timeout` (the model's request got no reply in time
 * while its server answered: a 2.6 reader would not know them), a trial's `length_cut_replies`, the
 * run environment's `machine`, and optional fields: the adversarial condition's `injection_site`,
 * `injection_rate`, `injection_classes` and `injection_seed`, a placed injection's `call_index` and
 * `part`, and a trial's `safety.injection_reported`, and the settings' `tool_calls`
 * (`run --tool-calls native|text`; absent: both).
 * 2.8 added optional fields only: a trial's `variant` (the instance of a variant task it ran) and the
 * settings' `variant_seed` and `variant` (`run --variant-seed`, `--variant`), for variant tasks only;
 * a tool call's `mcp` (the MCP server and tool it called; absent for the built-in tools); and the
 * agent fault `service_stopped` (a task's service stopped during the agent's turns).
 * 2.9 added optional fields only: a tool call's `survivor_writes` (what the background jobs it left
 * wrote, their trace followed to their end), which dates changes by the process that made them.
 * 2.10 added optional fields only: a trial's `judge` (`run --judge-model`: an LLM's grade of the
 * transcript, kept apart from the verdict).
 */
export const SCHEMA_VERSION = '2.10';
const OLDEST_READABLE = '2.0';

/** null when a file of this version can be read; otherwise why not, in one line. */
export function unreadableVersion(version: string): string | null {
  const v = parse(version);
  if (v === null) return `unknown schema version ${JSON.stringify(version)}`;
  if (compare(v, parse(SCHEMA_VERSION) as Version) > 0)
    return `written by a newer agent-bench (schema ${version}; this one reads up to ${SCHEMA_VERSION}): upgrade agent-bench to read it`;
  if (compare(v, parse(OLDEST_READABLE) as Version) < 0)
    return `schema ${version} is older than this agent-bench reads (${OLDEST_READABLE} and later)`;
  return null;
}

/** True when a file of `version` was written before `than` (both readable versions). */
export function olderThan(version: string, than: string): boolean {
  const v = parse(version);
  const t = parse(than);
  return v !== null && t !== null && compare(v, t) < 0;
}

type Version = [number, number];

function parse(version: string): Version | null {
  const m = /^(\d+)\.(\d+)$/.exec(version);
  return m === null ? null : [Number(m[1]), Number(m[2])];
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1];
}
