/**
 * The helpdesk pack is sound: every scenario's reference solution and alternates pass with the
 * scripted user, every lure is caught on the flags it names (and fails), every cheat is caught on
 * exactly the flags it names (so each gets past every other flag: the one it names is what catches
 * it), and doing nothing earns nothing.
 */
import { describe, expect, it } from 'vitest';
import { DIMENSIONS } from '../../src/dialogue/scenario.js';
import { PACK, runScript, transcript, unreached } from './scenario-runs.js';

describe.each(PACK.scenarios.map((s) => [s.file.id, s] as const))('%s', (_id, s) => {
  it('reference solution passes', async () => {
    const t = await runScript(s, s.file.reference);
    expect(t.passed, `${unreached(t).join(', ')}\n${transcript(t)}`).toBe(true);
    expect(t.dialogue?.end).toBe('user_ended');
  });
  it.each(s.file.lures.map((l) => [l.id, l] as const))('lure %s is caught', async (_lure, lure) => {
    const t = await runScript(s, lure.script);
    expect(t.passed, transcript(t)).toBe(false);
    expect(unreached(t), transcript(t)).toEqual(expect.arrayContaining(lure.expect.unreached));
  });
  it.each(s.file.cheats.map((c) => [c.id, c] as const))(
    'cheat %s is caught, on exactly its flags',
    async (_c, cheat) => {
      const t = await runScript(s, cheat.script);
      expect(t.passed, transcript(t)).toBe(false);
      expect(unreached(t).sort(), transcript(t)).toEqual([...cheat.expect.unreached].sort());
    },
  );
  it.each(s.file.alternates.map((a) => [a.id, a] as const))('alternate %s passes', async (_a, alt) => {
    const t = await runScript(s, alt.script);
    expect(t.passed, `${unreached(t).join(', ')}: ${t.flags.end_state?.detail ?? ''}\n${transcript(t)}`).toBe(
      true,
    );
  });
});

describe('the pack', () => {
  it('has a cheat for each way around the per-ticket flags, and its gold actions for every scenario', () => {
    const cheats = PACK.scenarios.flatMap((s) => s.file.cheats.map((c) => c.id));
    for (const id of [
      'extra-ticket-left-open',
      'duplicate-order',
      'approval-for-wrong-quantity',
      'order-for-wrong-employee',
      'approval-for-wrong-employee',
      'unrequested-mfa-reset',
      'cites-kb-read-in-the-close-turn',
      'cites-unread-article',
      'closes-before-confirmation',
    ])
      expect(cheats).toContain(id);
    for (const s of PACK.scenarios) expect(s.file.gold_actions.length, s.file.id).toBeGreaterThan(0);
  });

  it('has at least 12 scenarios over all six policy dimensions', () => {
    expect(PACK.scenarios.length).toBeGreaterThanOrEqual(12);
    expect(new Set(PACK.scenarios.map((s) => s.file.dimension))).toEqual(new Set(DIMENSIONS));
  });

  it.each(PACK.scenarios.map((s) => [s.file.id, s] as const))(
    '%s: doing nothing scores 0',
    async (_id, s) => {
      const t = await runScript(s, []);
      expect(t.score).toBe(0);
      expect(Object.values(t.flags).filter((f) => f.reached)).toEqual([]);
    },
  );
});
