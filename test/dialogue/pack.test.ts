/**
 * The helpdesk pack is sound: every scenario's reference solution passes with the scripted user,
 * every lure is caught on the flags it names (and fails), and doing nothing earns nothing.
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
});

describe('the pack', () => {
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
