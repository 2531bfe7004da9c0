/**
 * The request path through the executable, against a scripted server: a model that never answers
 * fails its trial (request_timeout) while the server keeps answering, the run goes on to the next
 * task and exits 0; and every request carries a reply bound (max_tokens) from the server's context.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { getTask } from '../../src/catalogue/built-in.js';
import { DEFAULT_REPLY_TOKENS, MIN_REPLY_TOKENS } from '../../src/models/reply-bound.js';
import { readResultFiles } from '../../src/results/store.js';
import { agentBench } from '../helpers/llama-cli.js';
import { type ScriptedServer, startScriptedServer, turnsToReplies } from '../helpers/scripted-server.js';

const MODEL = 'scripted-model';
const SILENT_TASK = 'doc_trap_v1';
const ANSWERED_TASK = 'debug_python_v1';
const answered = getTask(ANSWERED_TASK);
if (answered === undefined) throw new Error(`${ANSWERED_TASK} missing`);
const oracle = turnsToReplies(answered.referenceSolution);

let server: ScriptedServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe.sequential('request timeout', () => {
  it('a model that never answers fails its trial with request_timeout; the run goes on and exits 0', async () => {
    let answeredRequests = 0;
    server = await startScriptedServer({
      props: { build_info: 'b1-test', default_generation_settings: { n_ctx: 4096 }, total_slots: 1 },
      scripts: {
        // The silent task's requests are held far past the timeout (until the server closes);
        // the other task gets its reference solution, one reply per request.
        [MODEL]: (body) => {
          const prompt = body.messages.find((m) => m.role === 'user')?.content ?? '';
          if (typeof prompt === 'string' && prompt === answered.prompt)
            return oracle[answeredRequests++] ?? { text: 'done' };
          return { text: 'too late', delayMs: 30 * 60_000 };
        },
      },
    });
    const resultsDir = await mkdtemp(join(tmpdir(), 'agent-bench-timeout-'));
    const started = Date.now();
    const run = await agentBench([
      'run',
      '--tasks',
      `${SILENT_TASK},${ANSWERED_TASK}`,
      '--model',
      MODEL,
      '--base-url',
      server.baseUrl,
      '--request-timeout',
      '15',
      // The scripted replies solve the task folder's own instance of debug_python_v1.
      '--variant',
      'folder',
      '--results-dir',
      resultsDir,
    ]);
    expect(run.code, run.stderr).toBe(0);

    const { results } = await readResultFiles(resultsDir);
    const byTask = new Map(results.map(({ result }) => [result.task_id, result]));
    const silent = byTask.get(SILENT_TASK);
    expect(silent?.status).toBe('complete');
    const [trial] = silent?.trials ?? [];
    expect(trial?.status).toBe('failed');
    expect(trial?.error).toBeUndefined();
    expect(trial?.end_reason).toBe('request_timeout');
    expect(trial?.agent_fault?.kind).toBe('request_timeout');
    // The real wait, in seconds, in the record.
    expect(trial?.failure_reason).toMatch(
      /^request_timeout: .* timed out: no reply within the request timeout of 15 s \(waited 1[5-9]\.\d s\)/,
    );
    expect(trial?.turn_logs.at(-1)?.request_error).toMatch(/waited 1[5-9]\.\d s/);
    // Not the whole run's time: the timeout bounded the request.
    expect(Date.now() - started).toBeGreaterThan(15_000);

    // The next task ran and was measured.
    const next = byTask.get(ANSWERED_TASK);
    expect(next?.status).toBe('complete');
    expect(next?.trials[0]?.status).toBe('passed');

    // Every request carried a reply bound: what the 4096-token context leaves after the prompt,
    // smaller as the conversation grows, never below the floor.
    const requests = server.requests;
    expect(requests.length).toBe(1 + oracle.length);
    const bounds = requests.map((r) => (r.body as { max_tokens?: unknown }).max_tokens);
    for (const bound of bounds) {
      expect(typeof bound).toBe('number');
      expect(bound).toBeGreaterThanOrEqual(MIN_REPLY_TOKENS);
      expect(bound).toBeLessThan(DEFAULT_REPLY_TOKENS);
    }
    const answeredBounds = bounds.slice(1) as number[];
    expect(answeredBounds).toEqual([...answeredBounds].sort((a, b) => b - a));
  });
});
