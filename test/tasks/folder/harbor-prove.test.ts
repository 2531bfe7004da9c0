/**
 * How validate judges a Harbor trial (the oracle must earn exactly 1, doing nothing 0, a verifier
 * without a readable reward is the task's problem) and what a Harbor image is cached under.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { harborImageTag } from '../../../src/sandbox/harbor/image.js';
import type { HarborTrialResult, HarborVerifierRun } from '../../../src/sandbox/types.js';
import { loadHarborFolder } from '../../../src/tasks/folder/harbor/load.js';
import { judgeNothing, judgeOracle } from '../../../src/tasks/folder/harbor/prove.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'harbor');

function trial(over: Partial<HarborVerifierRun> & { agentExit?: number | null }): HarborTrialResult {
  const { agentExit = 0, ...verifier } = over;
  return {
    agentExit,
    verifier: {
      reward: { ok: true, reward: 1, metrics: {} },
      exitCode: 0,
      timedOut: false,
      output: '',
      tampered: null,
      ...verifier,
    },
  };
}

describe('judging a Harbor trial', () => {
  it('the oracle passes on a reward of exactly 1; a partial reward is its score, and a failure', () => {
    expect(judgeOracle(trial({}))).toEqual({ ok: true, detail: 'passes (reward 1)' });
    expect(judgeOracle(trial({ reward: { ok: true, reward: 0.75, metrics: {} } }))).toEqual({
      ok: false,
      detail: 'reference solution fails: reward 0.75',
    });
    expect(judgeOracle(trial({ reward: { ok: true, reward: 0, metrics: {} }, agentExit: 2 })).detail).toBe(
      'reference solution fails: reward 0; solve.sh exit 2',
    );
  });

  it('a verifier without a reward, or out of time, leaves the run unproven, whatever it printed', () => {
    const none = trial({
      reward: { ok: false, problem: 'the verifier wrote neither' },
      exitCode: 1,
      output: 'Traceback\n  boom',
    });
    expect(judgeOracle(none)).toEqual({
      ok: false,
      detail: 'reference solution unproven: the verifier wrote neither (test.sh exit 1: Traceback boom)',
    });
    expect(judgeNothing(trial({ timedOut: true })).detail).toBe(
      'doing nothing unproven: tests/test.sh ran out of time (task.toml verifier.timeout_sec)',
    );
  });

  it('doing nothing must score 0', () => {
    expect(judgeNothing(trial({ reward: { ok: true, reward: 0, metrics: {} } }))).toEqual({
      ok: true,
      detail: 'scores 0',
    });
    expect(judgeNothing(trial({ reward: { ok: true, reward: 0.25, metrics: {} } }))).toEqual({
      ok: false,
      detail: 'doing nothing scores 0.25',
    });
  });
});

describe('a Harbor image tag', () => {
  it('changes with the build context and with --base-image', () => {
    const sound = loadHarborFolder(join(FIXTURES, 'sound'));
    const broken = loadHarborFolder(join(FIXTURES, 'broken-oracle'));
    const tag = harborImageTag(sound.id, sound.contextDigest, undefined);
    expect(tag).toMatch(/^agent-bench-harbor:sound-[0-9a-f]{16}$/);
    expect(harborImageTag(sound.id, sound.contextDigest, undefined)).toBe(tag);
    expect(harborImageTag(sound.id, sound.contextDigest, 'agent-bench-sandbox:x')).not.toBe(tag);
    // The same environment/ (broken-oracle differs in solution/ only) is the same image content.
    expect(harborImageTag(broken.id, broken.contextDigest, undefined).split('-').pop()).toBe(
      tag.split('-').pop(),
    );
  });
});
