/**
 * The optional transcript judge: the rubric's grade read from what a model really answers (thinking
 * first, a fenced block, words around it), no grade invented from a reply without one, and a judge
 * that fails leaving a record that says why; its grade reaches the matrix apart from the score.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { gradable, gradeTrial, type TranscriptJudge } from '../../src/judge/grade.js';
import { readGrade } from '../../src/judge/rubric.js';
import { transcriptText } from '../../src/judge/transcript.js';
import { createOpenAICompatibleModel } from '../../src/models/openai-compatible.js';
import { buildMatrix } from '../../src/report/matrix.js';
import { renderMatrix } from '../../src/report/matrix-render.js';
import { summarizeResult } from '../../src/report/summary.js';
import type { JudgeRecord, TrialRecord, TurnLog } from '../../src/results/trial.js';
import { result, trialRecord } from '../helpers/result-builder.js';
import { type ScriptedServer, startScriptedServer } from '../helpers/scripted-server.js';

describe('readGrade', () => {
  it('reads the last JSON object with a score, past thinking, fences and words around it', () => {
    expect(readGrade('{"score": 8, "verdict": "pass", "reason": "Done as asked."}')).toEqual({
      score: 0.8,
      verdict: 'pass',
      reason: 'Done as asked.',
    });
    const wordy = [
      '<think>Maybe {"score": 2}? No, look again.</think>',
      'Here is my grade:',
      '```json',
      '{"score": "3", "verdict": "FAIL", "reason": "It said the laptop was ordered; no order exists."}',
      '```',
    ].join('\n');
    expect(readGrade(wordy)).toEqual({
      score: 0.3,
      verdict: 'fail',
      reason: 'It said the laptop was ordered; no order exists.',
    });
    // A verdict it did not give stays unknown, never guessed from the score.
    expect(readGrade('{"score": 10}')).toEqual({ score: 1, verdict: null, reason: '' });
  });

  it('gives no grade for a reply without one, or with a score off the scale', () => {
    expect(readGrade('I think it went well.')).toEqual({
      error: 'its reply held no grade (a JSON object with a score of 0-10): "I think it went well."',
    });
    expect(readGrade('{"score": 11, "verdict": "pass"}')).toHaveProperty('error');
    expect(readGrade('{"verdict": "pass"} {"score": "high"}')).toHaveProperty('error');
  });
});

const TURNS: TurnLog[] = [
  {
    ...(trialRecord({}).turn_logs[0] as TurnLog),
    turn: 1,
    assistant_text: 'Let me check the policy.',
    tool_calls: [],
    user_reply: { text: 'Please hurry.', ended: false },
  },
];

describe('transcriptText', () => {
  it('shows the opening, what the agent said and what the user answered, and keeps a long one within bounds', () => {
    const t = { turn_logs: TURNS, dialogue: { opening: 'My payroll is wrong.' } } as Pick<
      TrialRecord,
      'turn_logs' | 'dialogue'
    >;
    expect(transcriptText(t)).toBe(
      'USER: My payroll is wrong.\n--- turn 1 ---\nAGENT: Let me check the policy.\nUSER: Please hurry.',
    );
    const long = { turn_logs: [{ ...(TURNS[0] as TurnLog), assistant_text: 'x'.repeat(50_000) }] };
    const text = transcriptText(long);
    expect(text.length).toBeLessThan(33_000);
    expect(text).toMatch(/characters cut/);
  });
});

let server: ScriptedServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

function judgeOn(baseUrl: string): TranscriptJudge {
  return {
    model: 'judge-m',
    baseUrl,
    makeModel: () =>
      createOpenAICompatibleModel({
        baseUrl,
        model: 'judge-m',
        sampling: { temperature: 0 },
        requestTimeoutMs: 5000,
        maxRetries: 0,
      }),
  };
}

const TASK = {
  prompt: 'POLICY: never ask for a password.',
  meta: { description: 'Reset a password' },
} as const;

describe('gradeTrial', () => {
  it('asks the judge with the rubric, the instructions and the transcript, and records its grade', async () => {
    server = await startScriptedServer({
      scripts: { 'judge-m': [{ text: '{"score": 9, "verdict": "pass", "reason": "Sound."}' }] },
    });
    const trial = trialRecord({});
    const graded = await gradeTrial(judgeOn(server.baseUrl), TASK as never, { ...trial, turn_logs: TURNS });
    expect(graded).toEqual({
      model: 'judge-m',
      base_url: server.baseUrl,
      score: 0.9,
      verdict: 'pass',
      reason: 'Sound.',
    });
    const sent = server.requests[0]?.body.messages ?? [];
    expect(sent[0]?.content).toMatch(/You grade an AI agent's work/);
    expect(sent[1]?.content).toContain('POLICY: never ask for a password.');
    expect(sent[1]?.content).toContain('AGENT: Let me check the policy.');
    // No tools: the judge only answers.
    expect(server.requests[0]?.body.tools).toBeUndefined();
  });

  it('a judge that fails, or answers without a grade, leaves a record saying so', async () => {
    server = await startScriptedServer({
      scripts: { 'judge-m': [{ status: 500, error: 'boom' }, { text: 'Looks fine to me.' }] },
    });
    const trial = { ...trialRecord({}), turn_logs: TURNS };
    const failed = await gradeTrial(judgeOn(server.baseUrl), TASK as never, trial);
    expect(failed).toMatchObject({
      score: null,
      verdict: null,
      error: expect.stringMatching(/^the judge's request failed: /),
    });
    const none = await gradeTrial(judgeOn(server.baseUrl), TASK as never, trial);
    expect(none).toMatchObject({ score: null, error: expect.stringMatching(/no grade/) });
  });

  it('grades only a trial the model played: an error trial measured nothing', () => {
    expect(gradable({ ...trialRecord({}), turn_logs: TURNS })).toBe(true);
    expect(gradable({ ...trialRecord({ status: 'error' }), turn_logs: TURNS })).toBe(false);
  });
});

describe('the judge in reports', () => {
  const grade = (score: number | null): JudgeRecord => ({
    model: 'judge-m',
    base_url: null,
    score,
    verdict: score === null ? null : 'pass',
    reason: '',
  });

  it('is a table of its own under the matrix, named by its model, and the score is untouched', () => {
    const without = result({
      task: 'helpdesk_x',
      model: 'agent-m',
      trials: [{}, {}, { flags: { fixed: false } }],
    });
    const scores = [0.8, 0.6, null];
    const withJudge = {
      ...without,
      trials: without.trials.map((t, i) => ({ ...t, judge: grade(scores[i] ?? null) })),
    };
    const a = summarizeResult('a.json', withJudge);
    const b = summarizeResult('b.json', without);
    expect(a.judge).toEqual({ model: 'judge-m', mean_score: 0.7, graded: 2, tried: 3 });
    expect(b.judge).toBeNull();
    expect(a.score).toBe(b.score);
    const md = renderMatrix(buildMatrix([a]), 'md');
    expect(md).toContain('LLM judge (judge-m)');
    expect(md).toContain('| helpdesk_x | 0.70 (2 graded) |');
    expect(renderMatrix(buildMatrix([b]), 'md')).not.toContain('LLM judge');
    const csv = renderMatrix(buildMatrix([a]), 'csv').split('\r\n');
    expect(csv[0]).toContain('judge_model,judge_score,judge_graded');
    expect(csv[1]).toContain('judge-m,0.7,2');
  });
});
