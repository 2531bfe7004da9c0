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

function trial(
  over: Partial<HarborVerifierRun> & { agentExit?: number | null; agentOutput?: string },
): HarborTrialResult {
  const { agentExit = 0, agentOutput = '', ...verifier } = over;
  return {
    agentExit,
    agentOutput,
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
      output: 'tests/test.sh printed (exit 1; its end):\nTraceback\n  boom',
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

  it('a failed row keeps what solve.sh and test.sh printed and names the offline signatures in it', () => {
    const offline = trial({
      reward: { ok: true, reward: 0, metrics: {} },
      agentExit: 1,
      agentOutput: 'E: Unable to locate package jq',
      exitCode: 127,
      output: 'curl: (6) Could not resolve host: astral.sh\ntests/test.sh: line 9: uvx: command not found',
    });
    expect(judgeOracle(offline)).toEqual({
      ok: false,
      detail:
        'reference solution fails: reward 0; solve.sh exit 1 (offline? no network: a host name (astral.sh) could not be resolved; no network: apt cannot find package jq (no package lists offline); uvx is not installed (Harbor verifiers fetch it from the network))',
      output:
        'solve.sh printed (its end):\nE: Unable to locate package jq\ntests/test.sh printed (exit 127; its end):\ncurl: (6) Could not resolve host: astral.sh\ntests/test.sh: line 9: uvx: command not found',
    });
    expect(
      judgeNothing(
        trial({
          reward: { ok: true, reward: 1, metrics: {} },
          output: 'ERROR: No matching distribution found for pytest==8.4.1',
        }),
      ).detail,
    ).toBe('doing nothing scores 1 (offline? no network: pip cannot get pytest==8.4.1)');
    // A pass keeps nothing.
    expect(judgeOracle(trial({ output: 'uv: command not found' }))).toEqual({
      ok: true,
      detail: 'passes (reward 1)',
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
