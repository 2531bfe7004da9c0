/**
 * Both uses of the turn engine write their records through one builder: the same end reasons, the
 * same counts and the same failure text, whether the sandbox's tools or a desk and its user answered.
 */
import { describe, expect, it } from 'vitest';
import { createScriptedModel } from '../../src/models/scripted.js';
import { errorTrial, requestFailedTrial } from '../../src/trial/error-trial.js';
import { runScript, scenario } from '../dialogue/scenario-runs.js';
import { READ_NOTES, trial } from './trials.js';

describe('trial records, whoever answered the calls', () => {
  it('an agent trial that answered: final_answer, counted and judged', async () => {
    const { record } = await trial({
      model: createScriptedModel('oracle', READ_NOTES.referenceSolution ?? []),
    });
    expect(record).toMatchObject({
      status: 'passed',
      end_reason: 'final_answer',
      failure_reason: null,
      turns: 2,
      native_tool_calls: 1,
      final_answer: 'It says the build is green.',
    });
  });

  it('an agent trial that never answered: max_turns, whatever its flags', async () => {
    const looping = Array.from({ length: 3 }, () => ({
      calls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }],
    }));
    const { record } = await trial({
      task: { ...READ_NOTES, maxTurns: 3 },
      model: createScriptedModel('loop', looping),
    });
    expect(record).toMatchObject({
      status: 'passed',
      end_reason: 'max_turns',
      failure_reason: 'ran out of turns (3)',
      final_answer: null,
      turns: 3,
    });
  });

  it('a dialogue trial the user ended: user_ended, with the last message to the user kept', async () => {
    const s = scenario('helpdesk_kb_vpn_password_change');
    const t = await runScript(s, s.file.reference);
    expect(t.passed).toBe(true);
    expect(t.end_reason).toBe('user_ended');
    expect(t.dialogue?.end).toBe('user_ended');
    expect(t.failure_reason).toBeNull();
    expect(t.native_tool_calls).toBe(t.turn_logs.flatMap((l) => l.tool_calls).length);
    expect(t.final_answer).toBe(t.turn_logs.findLast((l) => l.user_reply !== undefined)?.assistant_text);
  });

  it('a trial not measured says why it ended by its error, not by its text', () => {
    const base = { index: 0, startedAt: '2026-01-01T00:00:00.000Z' };
    const harness = errorTrial({ ...base, reason: 'sandbox\ngone', error: { kind: 'harness' } });
    expect(harness).toMatchObject({
      status: 'error',
      end_reason: 'harness_error',
      failure_reason: 'sandbox gone',
    });
    const failed = requestFailedTrial(
      {
        ...base,
        failure: { kind: 'context_overflow', promptTokens: 9000, contextSize: 8192 },
        message: 'too long',
      },
      () => {},
    );
    expect(failed).toMatchObject({
      end_reason: 'request_failed',
      failure_reason: 'context_overflow: too long',
      error: { kind: 'context_overflow', prompt_tokens: 9000, context_size: 8192 },
    });
  });
});
