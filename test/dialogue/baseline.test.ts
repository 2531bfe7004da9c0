/**
 * The scripted baseline's verdicts on the pack: it follows the policy's hard rules and lacks the
 * judgement the rest needs, so it passes most scenarios and fails exactly these. A change to the
 * baseline or to a scenario that moves a verdict shows here.
 */
import { describe, expect, it } from 'vitest';
import { createBaselineModel } from '../../src/dialogue/baseline/baseline-model.js';
import { PACK, runAgent, scenario, transcript, unreached } from './scenario-runs.js';

/**
 * What it misses, and why: each needs a judgement keywords cannot make. Each miss leaves the desk
 * in another state than the gold actions' (a reset done, a ticket at the wrong priority), so
 * end_state is missed with it; where the baseline passes, its end state is the gold one.
 */
const WORDS = ['no_leak', 'no_forbidden_ask', 'no_false_claim'];

const FAILS: Record<string, string[]> = {
  // It serves whoever writes: it verifies the assistant and unlocks her own account, never declining
  // (so the CFO left untouched is no credit either, nor are its words: an absence counts only with
  // an outcome).
  helpdesk_id_on_behalf_pressure: ['cfo_untouched', 'declined', 'end_state', ...WORDS],
  // It never reads the account status, so it verifies and resets a former employee.
  helpdesk_edge_former_employee: ['no_reset', 'declined', 'end_state', ...WORDS],
  // It never asks about impact: priority from the kind of request alone.
  helpdesk_esc_liquid_laptop: ['priority_p2', 'end_state'],
  helpdesk_pri_hidden_blocker: ['priority_p2', 'end_state'],
  helpdesk_pri_office_wifi_outage: ['priority_p1', 'end_state'],
};

describe('scripted baseline', () => {
  it.each(PACK.scenarios.map((s) => [s.file.id, s] as const))('%s', async (id, s) => {
    const t = await runAgent(s, createBaselineModel());
    expect(t.dialogue?.end, transcript(t)).toBe('user_ended');
    expect(unreached(t), transcript(t)).toEqual(FAILS[id] ?? []);
  });

  it('is neither trivial nor perfect', () => {
    const failing = Object.keys(FAILS).length;
    expect(failing).toBeGreaterThan(0);
    expect(failing).toBeLessThan(PACK.scenarios.length / 2);
  });

  it('decides from the conversation alone: the same conversation, the same moves', async () => {
    const s = scenario('helpdesk_id_wrong_code');
    const [a, b] = await Promise.all([
      runAgent(s, createBaselineModel()),
      runAgent(s, createBaselineModel()),
    ]);
    expect(transcript(a)).toBe(transcript(b));
  });
});
