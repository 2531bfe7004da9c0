// The run panel: choose a model (listed live by the configured server), a task and k; start; watch the run's
// output and events stream in (server-sent events); cancel. One run at a time, enforced by the server.
import { getJson, postJson } from './api.js';
import { append, byId, clear, el } from './dom.js';

/**
 * @typedef {{ id: string, model: string, task: string, k: number, status: string, started_at: string,
 *   ended_at: string | null, exit_code: number | null, cli_run_id: string | null, stop_reason: string | null,
 *   progress: { line: string, done: number, total: number, elapsed_ms: number, left_ms: number | null, finished: boolean } | null }} RunState
 * @typedef {{ ts: string, run_id: string, task: string, model: string, event: Record<string, unknown> & { type: string } }} LoggedEvent
 */

const MAX_LINES = 5000;
/** @type {RunState | null} */
let current = null;
let lastSeq = -1;

/**
 * @param {() => void} onResultsChanged
 * @param {(runId: string) => Promise<import('./app.js').Summary[]>} resultsOf the results files a run wrote
 */
export function startRunPanel(onResultsChanged, resultsOf) {
  void fillChoices();
  const form = byId('run-form');
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void start();
  });
  byId('run-cancel').addEventListener('click', () => void cancel());
  const source = new EventSource('/api/events?since=run');
  // Each (re)connection replays the current run's lines and events, so start from a clean log.
  source.addEventListener('open', () => {
    clear(byId('run-log'));
    lastSeq = -1;
  });
  source.addEventListener('run', (e) => {
    const state = /** @type {RunState | null} */ (JSON.parse(/** @type {MessageEvent} */ (e).data));
    const ended = current?.status === 'running' && state !== null && state.status !== 'running';
    if (state !== null && current !== null && state.id !== current.id) {
      clear(byId('run-log'));
      lastSeq = -1;
    }
    current = state;
    showState();
    if (ended) {
      onResultsChanged();
      void showResults(resultsOf);
    }
  });
  source.addEventListener('log', (e) => {
    const line = JSON.parse(/** @type {MessageEvent} */ (e).data);
    if (line.seq <= lastSeq) return;
    lastSeq = line.seq;
    addLine(line.line, 'out');
  });
  source.addEventListener('trial', (e) => {
    const logged = /** @type {LoggedEvent} */ (JSON.parse(/** @type {MessageEvent} */ (e).data));
    const mine = current?.cli_run_id === logged.run_id || current?.cli_run_id === null;
    addLine(describe(logged), mine ? 'event' : 'other');
    if (logged.event.type === 'trial_end') onResultsChanged();
  });
}

async function fillChoices() {
  const modelSelect = byId('run-model');
  const taskSelect = byId('run-task');
  const [models, tasks] = await Promise.all([getJson('/api/models'), getJson('/api/tasks')]);
  clear(modelSelect);
  const served = el('optgroup', {
    label: models.base_url === null ? 'model server' : `served by ${models.base_url}`,
  });
  for (const m of models.models) append(served, el('option', { value: m }, m));
  const builtin = el('optgroup', { label: 'built into agent-bench' });
  for (const m of models.builtin) append(builtin, el('option', { value: m }, `${m} (reference agent)`));
  append(modelSelect, served, builtin);
  const notes = [models.error, tasks.error].filter((n) => n !== null);
  byId('run-note').textContent = notes.join(' · ');
  clear(taskSelect);
  append(taskSelect, el('option', { value: 'all' }, 'all tasks'));
  for (const [kind, label] of [
    ['task', 'tasks'],
    ['skill', 'skills'],
  ]) {
    const group = el('optgroup', { label });
    for (const t of tasks.tasks.filter((/** @type {{kind: string}} */ t) => t.kind === kind)) {
      append(group, el('option', { value: t.id, title: t.description }, t.id));
    }
    if (group.childElementCount > 0) append(taskSelect, group);
  }
}

async function start() {
  const model = /** @type {HTMLSelectElement} */ (byId('run-model')).value;
  const task = /** @type {HTMLSelectElement} */ (byId('run-task')).value;
  const k = Number(/** @type {HTMLSelectElement} */ (byId('run-k')).value);
  const skillDir = /** @type {HTMLInputElement} */ (byId('run-skill-dir')).value.trim();
  try {
    const { run } = await postJson('/api/run', {
      model,
      task,
      k,
      skill_dir: skillDir === '' ? null : skillDir,
    });
    clear(byId('run-result'));
    current = run;
    showState();
  } catch (err) {
    byId('run-status').textContent = `Not started: ${err instanceof Error ? err.message : String(err)}`;
  }
}

async function cancel() {
  try {
    await postJson('/api/run/cancel', {});
    // The stream may already have reported the end; only a run still going is "cancelling".
    if (current?.status === 'running') {
      byId('run-status').textContent = 'Cancelling: the run is stopping and removing its containers…';
    }
  } catch (err) {
    byId('run-status').textContent = `Could not cancel: ${err instanceof Error ? err.message : String(err)}`;
  }
}

function showState() {
  const running = current?.status === 'running';
  /** @type {HTMLButtonElement} */ (byId('run-start')).disabled = running;
  /** @type {HTMLButtonElement} */ (byId('run-cancel')).disabled = !running;
  showProgress();
  const status = byId('run-status');
  status.dataset.status = current?.status ?? 'none';
  if (current === null) {
    status.textContent = 'No run started from this dashboard yet.';
    return;
  }
  const what = `${current.model} on ${current.task}, k=${current.k}`;
  status.textContent = running
    ? `Running ${what} (started ${current.started_at})${current.cli_run_id === null ? '' : ` · run ${current.cli_run_id}`}`
    : `${current.status}: ${what}${current.exit_code === null ? '' : ` · exit ${current.exit_code}`}${current.stop_reason === null ? '' : ` · ${current.stop_reason}`}`;
}

/** Where the run is, as the CLI's own status line says it (task x/N · trial i/k · turn t/max · elapsed · left). */
function showProgress() {
  const box = byId('run-progress');
  const p = current?.progress ?? null;
  box.hidden = p === null;
  if (p === null) return;
  const bar = /** @type {HTMLProgressElement} */ (byId('run-progress-bar'));
  bar.max = Math.max(1, p.total);
  bar.value = p.done;
  byId('run-progress-line').textContent = p.line;
}

/**
 * Links to what the run wrote, once it ended (the run id comes from its first event; a run that never
 * started a trial wrote nothing).
 * @param {(runId: string) => Promise<import('./app.js').Summary[]>} resultsOf
 */
async function showResults(resultsOf) {
  const box = clear(byId('run-result'));
  const runId = current?.cli_run_id ?? null;
  const written = runId === null ? [] : await resultsOf(runId);
  if (written.length === 0) {
    append(box, el('span', { class: 'muted' }, 'This run wrote no results file.'));
    return;
  }
  append(box, 'Results: ');
  for (const r of written) {
    append(
      box,
      el(
        'a',
        { href: `#cell=${encodeURIComponent(r.file)}`, class: 'result-link' },
        `${r.task_id} × ${r.model}: ${r.pass_all_k ? `✓ pass^${r.k}` : `✗ ${r.score.toFixed(2)}`}`,
      ),
      ' ',
    );
  }
}

/** @param {LoggedEvent} l */
function describe(l) {
  const e = l.event;
  // Trials are numbered from 1 here, as the CLI prints them (events carry the 0-based index).
  const where = `[${l.task} · trial ${Number(e.trial) + 1}${typeof e.turn === 'number' ? ` · turn ${e.turn}` : ''}]`;
  switch (e.type) {
    case 'trial_start':
      return `${where} trial started (${l.model})`;
    case 'model_reply':
      return `${where} model (${e.latency_ms} ms, ${e.tool_calls} call(s))${e.text === '' ? '' : `: ${String(e.text).slice(0, 300)}`}`;
    case 'tool_call':
      return `${where} ${e.name} ${e.arg} → ${e.invalid === null ? `exit ${e.exit_code ?? '?'}` : `invalid: ${e.invalid}`}`;
    case 'model_error':
      return `${where} model error: ${e.error}`;
    case 'trial_end':
      return `${where} trial ended: ${e.passed ? 'passed' : e.status}, score ${Number(e.score).toFixed(2)}, ${e.turns} turns`;
    default:
      return `${where} ${e.type}`;
  }
}

/** @param {string} text @param {string} cls */
function addLine(text, cls) {
  const log = byId('run-log');
  const atBottom = log.scrollTop + log.clientHeight >= log.scrollHeight - 20;
  append(log, el('li', { class: cls }, text));
  while (log.childElementCount > MAX_LINES) log.firstElementChild?.remove();
  if (atBottom) log.scrollTop = log.scrollHeight;
}
