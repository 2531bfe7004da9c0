/**
 * `run --judge-model` as a user runs it, against a scripted OpenAI-compatible server that plays both
 * the agent (a helpdesk scenario's reference) and the judge: every trial carries the judge's grade,
 * the verdict is the same as without a judge, and `report matrix` shows the grade in a table of its
 * own, named by the judge's model.
 */
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { allTasks } from '../../src/catalogue/built-in.js';
import { readResultFiles } from '../../src/results/store.js';
import { startScriptedServer, turnsToReplies } from '../helpers/scripted-server.js';

const run = promisify(execFile);
const BIN = join(import.meta.dirname, '../../bin/agent-bench');
const TASK = 'helpdesk_kb_printer_queue';

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], {
      env: { ...process.env, CI: 'true' },
      timeout: 300_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describe('run --judge-model', () => {
  it('records the judge beside each verdict, leaves the verdict alone, and reports it apart', async () => {
    const task = allTasks().find((t) => t.id === TASK);
    if (task === undefined) throw new Error(`no task ${TASK}`);
    const replies = turnsToReplies(task.referenceSolution);
    const server = await startScriptedServer({
      scripts: {
        // Each trial replays the reference from its start.
        agent: (_body, index) => replies[index % replies.length] ?? { text: 'done' },
        judge: [
          {
            text: '<think>It followed the KB.</think>{"score": 9, "verdict": "pass", "reason": "Followed the article."}',
          },
          { text: 'No grade from me.' },
        ],
      },
    });
    try {
      const judged = await mkdtemp(join(tmpdir(), 'ab-judge-'));
      const plain = await mkdtemp(join(tmpdir(), 'ab-judge-'));
      const common = ['run', '--tasks', TASK, '--model', 'agent', '--base-url', server.baseUrl, '--k', '2'];
      const r = await cli([...common, '--judge-model', 'judge', '--results-dir', judged]);
      expect(r.code, r.stderr).toBe(0);
      const p = await cli([...common, '--results-dir', plain]);
      expect(p.code, p.stderr).toBe(0);
      const [withJudge] = (await readResultFiles(judged)).results;
      const [without] = (await readResultFiles(plain)).results;
      const trials = withJudge?.result.trials ?? [];
      expect(trials.map((t) => t.judge)).toEqual([
        {
          model: 'judge',
          base_url: server.baseUrl,
          score: 0.9,
          verdict: 'pass',
          reason: 'Followed the article.',
        },
        {
          model: 'judge',
          base_url: server.baseUrl,
          score: null,
          verdict: null,
          reason: '',
          error: 'its reply held no grade (a JSON object with a score of 0-10): "No grade from me."',
        },
      ]);
      // The deterministic verdict is the harness's alone.
      const verdicts = (ts: typeof trials) => ts.map((t) => [t.passed, t.score, t.flags]);
      expect(verdicts(trials)).toEqual(verdicts(without?.result.trials ?? []));
      expect(trials.every((t) => t.passed)).toBe(true);
      // The judge was told the policy and shown the conversation.
      const asked = server.requests.filter((q) => q.model === 'judge');
      expect(asked).toHaveLength(2);
      expect(asked[0]?.body.messages[1]?.content).toContain(task.prompt.slice(0, 200));
      const matrix = await cli(['report', 'matrix', '--results-dir', judged]);
      expect(matrix.code, matrix.stderr).toBe(0);
      expect(matrix.stdout).toContain('LLM judge (judge)');
      expect(matrix.stdout).toContain(`| ${TASK} | 0.90 (1 graded) |`);
      // A judge flag without its model is a usage error.
      const bad = await cli([...common, '--judge-base-url', server.baseUrl, '--results-dir', plain]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--judge-base-url needs --judge-model');
    } finally {
      await server.close();
    }
  });
});
