/**
 * A Harbor task judged through the real loop on the in-memory sandbox: its verifier, not flag
 * checks, decides the trial (a reward below 1 is kept as the score and fails), the verifier runs
 * after the agent's last turn, and tamper still scores 0.
 */
import { describe, expect, it } from 'vitest';
import { createScriptedModel } from '../../src/models/scripted.js';
import type { HarborTask } from '../../src/tasks/types.js';
import { READ_NOTES, trial } from './trials.js';

function harborLike(
  reward: number,
  allowedWrites: string[],
  seen: string[],
  agentTimeoutSec = 600,
): HarborTask {
  return {
    ...READ_NOTES,
    kind: 'harbor',
    id: 'harbor_like',
    allowedWrites,
    flags: [
      {
        id: 'reward',
        kind: 'outcome',
        description: 'tests/test.sh gives a reward of 1',
        check: () => {
          throw new Error('a Harbor task has no flag checks');
        },
      },
    ],
    environment: {
      place: 'container',
      image: async () => ({ image: 'unused', toolsVolume: 'unused' }),
      limits: { cpus: 1, memory_mb: 512 },
      mounts: [],
      agentTimeoutSec,
    },
    judge: {
      by: 'verifier',
      async verify(sandbox) {
        seen.push([...(await sandbox.snapshot()).keys()].sort().join(','));
        return {
          flags: {
            reward: { reached: reward === 1, turn: null, kind: 'outcome', detail: `reward ${reward}` },
          },
          score: reward,
          passed: reward === 1,
        };
      },
    },
  };
}

/** A fresh model each time: a scripted model keeps its cursor. */
const writeOut = () =>
  createScriptedModel('m', [
    { calls: [{ name: 'write_file', arguments: { path: 'out.txt', content: 'x' } }] },
    { text: 'done', calls: [] },
  ]);

describe('a Harbor task in the judge', () => {
  it('keeps a partial reward as the score, fails the trial, and verifies after the last turn', async () => {
    const seen: string[] = [];
    const { record } = await trial({ task: harborLike(0.5, ['**'], seen), model: writeOut() });
    expect(seen).toEqual(['notes.txt,out.txt']);
    expect(record.status).toBe('failed');
    expect(record.score).toBe(0.5);
    expect(record.flags.reward).toEqual({
      reached: false,
      turn: null,
      kind: 'outcome',
      detail: 'reward 0.5',
    });
    expect(record.failure_reason).toBe('flags not reached: reward');
  });

  it('a reward of 1 passes; tamper still scores 0', async () => {
    const passed = await trial({ task: harborLike(1, ['**'], []), model: writeOut() });
    expect([passed.record.status, passed.record.score]).toEqual(['passed', 1]);
    const tampered = await trial({ task: harborLike(1, [], []), model: writeOut() });
    expect([tampered.record.status, tampered.record.score, tampered.record.tamper_detected]).toEqual([
      'failed',
      0,
      true,
    ]);
  });

  it('no turn starts past the agent timeout, and the verifier still runs', async () => {
    const seen: string[] = [];
    const { record } = await trial({ task: harborLike(1, ['**'], seen, 0), model: writeOut() });
    expect(record.turns).toBe(1);
    expect(seen).toEqual(['notes.txt,out.txt']);
    expect(record.score).toBe(1);
    expect(record.failure_reason).toBe('ran out of agent time (0 s)');
  });
});
