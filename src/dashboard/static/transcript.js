// One trial's full transcript: flags, every turn (what the model said, each tool call with its arguments,
// exit code and foldable output), the final answer, tamper violations and the artifacts it left.
import { renderArtifacts } from './artifacts.js';
import { append, el } from './dom.js';

/**
 * @typedef {{ name: string, arguments: Record<string, unknown> | null, raw_arguments: string, source: string,
 *   invalid: string | null, cwd: string, exit_code: number | null, stdout: string, stderr: string,
 *   truncated: boolean, timed_out: boolean, elapsed_ms: number, mcp?: { server: string, tool: string } }} Call
 * @typedef {{ turn: number, assistant_text: string, tool_calls: Call[], elapsed_ms: number, model_latency_ms: number,
 *   finish_reason: string | null, retries: unknown[], malformed: string | null,
 *   user_reply?: { text: string, ended: boolean } }} Turn
 * @typedef {{ reached: boolean, turn: number | null, kind: string, detail?: string }} Flag
 * @typedef {{ flags: Record<string, Flag>, failure_reason: string | null, tamper_violations: string[],
 *   usage: { prompt_tokens: number, completion_tokens: number }, native_tool_calls: number, text_tool_calls: number,
 *   invalid_tool_call_count: number, malformed_replies: number, turn_logs: Turn[], final_answer: string | null,
 *   dialogue?: { opening: string, end: string }, rewards?: Record<string, number> }} Trial
 */

/** @param {HTMLElement} box @param {{ trial: Trial, artifacts: import('./artifacts.js').Artifact[] }} data */
export function renderTranscript(box, data) {
  const t = data.trial;
  /** @type {[string, Flag][]} */
  const flags = Object.entries(t.flags);
  append(
    box,
    el(
      'p',
      { class: 'flags' },
      'Flags: ',
      ...flags.map(([id, f]) =>
        el(
          'span',
          { class: `badge ${f.reached ? '' : 'bad'}`, title: f.detail ?? '' },
          `${f.reached ? '✓' : '✗'} ${id}${f.reached && f.turn !== null ? ` @turn ${f.turn}` : ''} (${f.kind})`,
        ),
      ),
    ),
  );
  // A Harbor verifier's named metrics: the score is one of them (or their mean), the reward flag says which.
  if (t.rewards !== undefined)
    append(
      box,
      el(
        'p',
        { class: 'small' },
        `Rewards (reward.json): ${Object.entries(t.rewards)
          .map(([k, v]) => `${k} ${v}`)
          .join(' · ')}`,
      ),
    );
  if (t.failure_reason !== null)
    append(box, el('p', { class: 'fail' }, `Why it did not pass: ${t.failure_reason}`));
  if (t.tamper_violations.length > 0) {
    append(
      box,
      el(
        'div',
        { class: 'panel' },
        el('strong', { class: 'fail' }, '⚠ Tamper violations'),
        list(t.tamper_violations),
      ),
    );
  }
  append(
    box,
    el(
      'p',
      { class: 'small muted' },
      `${t.usage.prompt_tokens} prompt + ${t.usage.completion_tokens} completion tokens · ${t.native_tool_calls} native / ` +
        `${t.text_tool_calls} text tool calls · ${t.invalid_tool_call_count} invalid · ${t.malformed_replies} malformed replies`,
    ),
  );
  // A dialogue task: the simulated user opened the conversation, and answers the turns without calls.
  if (t.dialogue !== undefined) append(box, el('div', { class: 'user-say' }, `User: ${t.dialogue.opening}`));
  for (const turn of t.turn_logs) append(box, turnBlock(turn, flags));
  if (t.dialogue?.end === 'max_turns')
    append(box, el('p', { class: 'muted' }, 'The conversation ran out of turns before the user ended it.'));
  append(
    box,
    t.final_answer === null
      ? el('p', { class: 'muted' }, 'No final answer (the trial ended without one).')
      : el(
          'div',
          { class: 'panel final' },
          el('strong', {}, 'Final answer'),
          el('div', { class: 'say' }, t.final_answer),
        ),
  );
  renderArtifacts(box, data.artifacts);
}

/** @param {Turn} turn @param {[string, Flag][]} flags */
function turnBlock(turn, flags) {
  const reached = flags.filter(([, f]) => f.reached && f.turn === turn.turn).map(([id]) => id);
  const head = [
    `Turn ${turn.turn}`,
    `model ${(turn.model_latency_ms / 1000).toFixed(1)}s`,
    turn.finish_reason === null ? null : `finish ${turn.finish_reason}`,
    turn.retries.length > 0 ? `${turn.retries.length} retr${turn.retries.length === 1 ? 'y' : 'ies'}` : null,
  ].filter((s) => s !== null);
  return el(
    'div',
    { class: 'turn', 'data-turn': turn.turn },
    el('div', { class: 'turn-head' }, head.join(' · ')),
    reached.length === 0
      ? null
      : el('div', { class: 'flag-reached' }, `⚑ reached on this turn: ${reached.join(', ')}`),
    turn.malformed === null ? null : el('div', { class: 'fail small' }, `malformed reply: ${turn.malformed}`),
    turn.assistant_text.trim() === '' ? null : el('div', { class: 'say' }, turn.assistant_text),
    ...turn.tool_calls.map(callBlock),
    turn.user_reply === undefined
      ? null
      : el(
          'div',
          { class: 'user-say' },
          `User: ${turn.user_reply.text}${turn.user_reply.ended ? ' (ended the conversation)' : ''}`,
        ),
  );
}

/** @param {Call} c */
function callBlock(c) {
  const arg =
    typeof c.arguments?.command === 'string'
      ? c.arguments.command
      : typeof c.arguments?.path === 'string'
        ? c.arguments.path
        : c.raw_arguments;
  const status =
    c.invalid !== null
      ? el('span', { class: 'fail' }, `✗ invalid: ${c.invalid}`)
      : c.timed_out
        ? el('span', { class: 'fail' }, '✗ timed out')
        : c.exit_code === 0
          ? el('span', { class: 'pass' }, '✓ 0')
          : el('span', { class: 'fail' }, `✗ exit ${c.exit_code ?? '?'}`);
  const args = c.arguments === null ? c.raw_arguments : JSON.stringify(c.arguments, null, 2);
  return el(
    'div',
    { class: 'call' },
    el(
      'div',
      { class: 'call-line' },
      el('span', { class: 'tool' }, c.name),
      c.source === 'text' ? el('span', { class: 'badge' }, 'text call') : null,
      // An MCP server's tool: which server and tool, as the server names them.
      c.mcp === undefined ? null : el('span', { class: 'badge' }, `MCP ${c.mcp.server} · ${c.mcp.tool}`),
      ` ${arg} `,
      status,
      el(
        'span',
        { class: 'muted' },
        ` · ${(c.elapsed_ms / 1000).toFixed(2)}s${c.truncated ? ' · output cut' : ''} · cwd ${c.cwd}`,
      ),
    ),
    fold('arguments', args, c.invalid !== null),
    c.stdout === ''
      ? null
      : fold(`${c.mcp ? 'result' : 'stdout'} (${c.stdout.length} chars)`, c.stdout, false),
    c.stderr === ''
      ? null
      : fold(`${c.mcp ? 'error' : 'stderr'} (${c.stderr.length} chars)`, c.stderr, false),
  );
}

/** @param {string} label @param {string} text @param {boolean} open */
function fold(label, text, open) {
  return el('details', { class: 'fold', open }, el('summary', {}, label), el('pre', {}, text));
}

/** @param {string[]} items */
function list(items) {
  return el('ul', {}, ...items.map((i) => el('li', {}, i)));
}
