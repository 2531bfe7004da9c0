/** The noisy condition: which calls fault, what the model sees, and that a fault is evidence of nothing. */
import { describe, expect, it } from 'vitest';
import type { ScriptedTurn } from '../../src/models/scripted.js';
import type { FaultKind, ToolCallLog } from '../../src/results/trial.js';
import { FAULT_KINDS, faultAt } from '../../src/trial/conditions/faults.js';
import { noisy, READ_NOTES, recordingModel, trial } from './trials.js';

const SEED = { taskId: READ_NOTES.id, trial: 0 };
const faultsOf = (calls: readonly ToolCallLog[]) => calls.map((c) => c.fault?.kind ?? null);
const callsOf = (r: { turn_logs: { tool_calls: ToolCallLog[] }[] }) =>
  r.turn_logs.flatMap((t) => t.tool_calls);

/** n turns of one read_file each, then a final answer. */
const reads = (n: number): ScriptedTurn[] => [
  ...Array.from({ length: n }, () => ({ calls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] })),
  { text: 'done', calls: [] },
];

describe('which calls fault', () => {
  it('is a function of task, trial and call number: the same seed gives the same faults', () => {
    const draw = (seed: typeof SEED) => Array.from({ length: 200 }, (_, i) => faultAt(seed, i, 0.2));
    expect(draw(SEED)).toEqual(draw({ ...SEED }));
    expect(draw(SEED)).not.toEqual(draw({ ...SEED, trial: 1 }));
    expect(draw(SEED)).not.toEqual(draw({ ...SEED, taskId: 'other_v1' }));
    const rate = draw(SEED).filter((f) => f !== null).length / 200;
    expect(rate).toBeGreaterThan(0.1);
    expect(rate).toBeLessThan(0.3);
  });

  it('faults at a higher rate every call a lower rate faults, with the same kind', () => {
    for (let i = 0; i < 300; i++) {
      const low = faultAt(SEED, i, 0.1);
      if (low !== null) expect(faultAt(SEED, i, 0.4)).toBe(low);
    }
    expect(Array.from({ length: 50 }, (_, i) => faultAt(SEED, i, 0))).toEqual(Array(50).fill(null));
  });

  it('does not depend on the model: two models with different names fault at the same calls', async () => {
    const a = await trial({ model: recordingModel('alpha', reads(12)), condition: noisy(0.3) });
    const b = await trial({ model: recordingModel('beta-70b-q4', reads(12)), condition: noisy(0.3) });
    const expected = Array.from({ length: 12 }, (_, i) => faultAt(SEED, i, 0.3));
    expect(expected.some((f) => f !== null)).toBe(true);
    expect(faultsOf(callsOf(a.record))).toEqual(expected);
    expect(faultsOf(callsOf(b.record))).toEqual(expected);
  });

  it('counts only calls that would run: a refused call does not shift the faults after it', async () => {
    const script: ScriptedTurn[] = [{ calls: [{ name: 'no_such_tool', arguments: {} }] }, ...reads(10)];
    const { record } = await trial({ model: recordingModel('m', script), condition: noisy(0.3) });
    const calls = callsOf(record);
    expect(calls[0]?.invalid).toBe('unknown_tool');
    expect(faultsOf(calls.slice(1))).toEqual(Array.from({ length: 10 }, (_, i) => faultAt(SEED, i, 0.3)));
  });
});

describe('what a fault does', () => {
  it('answers each kind to the model instead of running the call, each in its own words', async () => {
    const n = 40;
    const kinds = Array.from({ length: n }, (_, i) => faultAt(SEED, i, 1) as FaultKind);
    expect(new Set(kinds)).toEqual(new Set(FAULT_KINDS));
    const model = recordingModel('m', reads(n));
    const { record, sandbox } = await trial({ model, condition: noisy(1, 0.02) });
    const replies = model.toolReplies();
    expect(replies).toHaveLength(n);
    const byKind = new Map<FaultKind, Set<string>>();
    for (const [i, kind] of kinds.entries()) {
      const shown = replies[i] ?? '';
      expect(shown).not.toContain('green');
      byKind.set(kind, (byKind.get(kind) ?? new Set()).add(shown));
    }
    // One text per kind, and no two kinds look alike (a timeout is not an empty result).
    expect([...byKind.values()].map((s) => s.size)).toEqual(FAULT_KINDS.map(() => 1));
    const texts = FAULT_KINDS.map((k) => [...(byKind.get(k) ?? [])][0]);
    expect(new Set(texts).size).toBe(FAULT_KINDS.length);
    expect(texts[FAULT_KINDS.indexOf('empty_result')]).toBe('');
    expect(texts[FAULT_KINDS.indexOf('timeout')]).toMatch(/timed out after 0 s/);
    expect(texts[FAULT_KINDS.indexOf('rate_limit')]).toMatch(/429/);
    expect(texts[FAULT_KINDS.indexOf('internal_error')]).toMatch(/500/);
    expect(() => JSON.parse(texts[FAULT_KINDS.indexOf('malformed_output')] ?? '')).toThrow();
    // Tagged in the turn log with what the model was shown.
    for (const [i, call] of callsOf(record).entries()) {
      expect(call.fault).toEqual({ kind: kinds[i], call_index: i });
      expect(call.stderr).toBe(replies[i]);
      expect(call.exit_code).toBeNull();
    }
    expect(sandbox.commands).toEqual([]);
  });

  it('takes its time when it is a timeout', async () => {
    const first = Array.from({ length: 40 }, (_, i) => faultAt(SEED, i, 1)).indexOf('timeout');
    const { record } = await trial({
      model: recordingModel('m', reads(first + 1)),
      condition: noisy(1, 0.2),
    });
    expect(callsOf(record)[first]?.elapsed_ms).toBeGreaterThanOrEqual(190);
  });

  it('never runs the command in the sandbox', async () => {
    const commands: ScriptedTurn[] = [
      ...Array.from({ length: 8 }, (_, i) => ({
        calls: [{ name: 'execute_command', arguments: { command: `echo ${i}` } }],
      })),
      { text: 'done', calls: [] },
    ];
    const { record, sandbox } = await trial({ model: recordingModel('m', commands), condition: noisy(0.5) });
    const ran = callsOf(record)
      .map((c, i) => (c.fault === undefined ? `echo ${i}` : null))
      .filter((c) => c !== null);
    expect(ran.length).toBeGreaterThan(0);
    expect(ran.length).toBeLessThan(8);
    expect(sandbox.commands).toEqual(ran);
  });

  it('is no evidence: a flag a faulted read would meet is not reached, and a retry that ran meets it', async () => {
    const faulted = await trial({ model: recordingModel('m', reads(1)), condition: noisy(1) });
    expect(faulted.record.flags.read_notes?.reached).toBe(false);
    expect(faulted.record.turn_logs[0]?.tool_calls[0]?.fault).toBeDefined();

    const firstRun = Array.from({ length: 40 }, (_, i) => faultAt(SEED, i, 0.5)).indexOf(null);
    const retried = await trial({ model: recordingModel('m', reads(firstRun + 1)), condition: noisy(0.5) });
    expect(retried.record.flags.read_notes?.reached).toBe(true);

    const clean = await trial({ model: recordingModel('m', reads(1)) });
    expect(clean.record.flags.read_notes?.reached).toBe(true);
    expect(callsOf(clean.record)[0]?.fault).toBeUndefined();
  });
});
