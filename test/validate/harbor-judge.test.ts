/**
 * How validate judges a trial of a Harbor task, through the same judge as every task's (the oracle
 * must earn exactly 1, doing nothing 0, a verifier without a readable reward leaves the run
 * unproven), on records made as a Harbor trial makes them (harborVerdict → judgedTrial); and what a
 * Harbor image is cached under.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadHarborFolder } from '../../src/catalogue/harbor/load.js';
import { harborVerdict } from '../../src/catalogue/harbor/verify.js';
import type { TrialRecord } from '../../src/results/trial.js';
import { harborImageTag } from '../../src/sandbox/harbor/image.js';
import type { HarborVerifierRun } from '../../src/sandbox/types.js';
import { judgedTrial } from '../../src/trial/trial-record.js';
import { judgeNothing, judgeOracle } from '../../src/validate/judge.js';

const FIXTURES = join(import.meta.dirname, '..', 'tasks', 'fixtures', 'harbor');
const SOUND = loadHarborFolder(join(FIXTURES, 'sound'));

/** A Harbor trial's record: the oracle's call (when it ran) and the verifier's run as given. */
function trial(
  over: Partial<HarborVerifierRun> & { agentExit?: number | null; agentOutput?: string; oracle?: boolean },
): TrialRecord {
  const { agentExit = 0, agentOutput = '', oracle = true, ...run } = over;
  const verdict = harborVerdict(SOUND, {
    reward: { ok: true, reward: 1, metrics: {} },
    exitCode: 0,
    timedOut: false,
    output: '',
    tampered: null,
    ...run,
  });
  const call = {
    name: 'execute_command',
    arguments: { command: 'bash /solution/solve.sh' },
    raw_arguments: '{"command":"bash /solution/solve.sh"}',
    source: 'native' as const,
    cwd: '/workspace',
    invalid: null,
    exit_code: agentExit,
    stdout: agentOutput,
    stderr: '',
    truncated: false,
    timed_out: false,
    elapsed_ms: 1,
  };
  return judgedTrial({
    index: 0,
    startedAt: '2026-12-07T00:00:00.000Z',
    turnLogs: oracle
      ? [
          {
            turn: 1,
            assistant_text: '',
            tool_calls: [call],
            usage: { prompt_tokens: 0, completion_tokens: 0 },
            elapsed_ms: 1,
            retries: [],
          } as unknown as TrialRecord['turn_logs'][number],
        ]
      : [],
    end: 'final_answer',
    elapsedSec: 1,
    harnessSec: 1,
    verdict: {
      flags: verdict.flags,
      passed: verdict.passed,
      score: verdict.score,
      tamperViolations: [],
      ...(verdict.fault === undefined ? {} : { fault: verdict.fault }),
      harborVerifier: verdict.verifier,
    },
    finalAnswer: 'done',
  });
}

describe('judging a Harbor trial', () => {
  it('the oracle passes on a reward of exactly 1; a partial reward is its score, and a failure', () => {
    expect(judgeOracle(trial({}))).toEqual({ ok: true, detail: 'passes' });
    expect(judgeOracle(trial({ reward: { ok: true, reward: 0.75, metrics: {} } }))).toEqual({
      ok: false,
      detail: 'reference solution fails: reward missed (Harbor verifier tests/test.sh: reward 0.75)',
    });
    const failed = judgeOracle(
      trial({ reward: { ok: true, reward: 0, metrics: {} }, agentExit: 2, agentOutput: 'step 3 failed\n' }),
    );
    expect(failed.detail).toBe(
      'reference solution fails: reward missed (Harbor verifier tests/test.sh: reward 0)',
    );
    expect(failed.output).toBe('`bash /solution/solve.sh` printed (exit 2; its end):\nstep 3 failed');
  });

  it('a verifier without a reward, or out of time, leaves the run unproven, with what it printed', () => {
    const none = trial({
      reward: { ok: false, problem: 'the verifier wrote neither' },
      exitCode: 1,
      output: 'Traceback\n  boom',
    });
    expect(judgeOracle(none)).toEqual({
      ok: false,
      detail:
        'reference solution unproven: Harbor verifier tests/test.sh: no reward: the verifier wrote neither (Traceback\n  boom)',
      output: 'tests/test.sh printed (exit 1; its end):\nTraceback\n  boom',
    });
    expect(judgeNothing(trial({ timedOut: true, oracle: false })).detail).toMatch(
      /^doing nothing unproven: Harbor verifier tests\/test\.sh: timed out after \d+ s$/,
    );
  });

  it('doing nothing must score 0', () => {
    expect(judgeNothing(trial({ reward: { ok: true, reward: 0, metrics: {} }, oracle: false }))).toEqual({
      ok: true,
      detail: 'scores 0',
    });
    expect(judgeNothing(trial({ reward: { ok: true, reward: 0.25, metrics: {} }, oracle: false }))).toEqual({
      ok: false,
      detail: 'doing nothing reaches nothing (score 0.25)',
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
    const judged = judgeOracle(offline);
    expect(judged.ok).toBe(false);
    expect(judged.detail).toContain('no network: a host name (astral.sh) could not be resolved');
    expect(judged.detail).toContain(
      '(offline? no network: apt cannot find package jq (no package lists offline))',
    );
    expect(judged.output).toBe(
      '`bash /solution/solve.sh` printed (exit 1; its end):\nE: Unable to locate package jq\ntests/test.sh printed (exit 127; its end):\ncurl: (6) Could not resolve host: astral.sh\ntests/test.sh: line 9: uvx: command not found',
    );
    expect(
      judgeNothing(
        trial({
          reward: { ok: true, reward: 1, metrics: {} },
          output: 'ERROR: No matching distribution found for pytest==8.4.1',
          oracle: false,
        }),
      ).detail,
    ).toBe('doing nothing reaches reward (score 1) (offline? no network: pip cannot get pytest==8.4.1)');
    // A pass keeps nothing.
    expect(judgeOracle(trial({ output: 'uv: command not found' }))).toEqual({ ok: true, detail: 'passes' });
  });
});

describe('a Harbor image tag', () => {
  it('changes with the build context and with --base-image', () => {
    const broken = loadHarborFolder(join(FIXTURES, 'broken-oracle'));
    const tag = harborImageTag(SOUND.id, SOUND.contextDigest, undefined);
    expect(tag).toMatch(/^agent-bench-harbor:sound-[0-9a-f]{16}$/);
    expect(harborImageTag(SOUND.id, SOUND.contextDigest, undefined)).toBe(tag);
    expect(harborImageTag(SOUND.id, SOUND.contextDigest, 'agent-bench-sandbox:x')).not.toBe(tag);
    // The same environment/ (broken-oracle differs in solution/ only) is the same image content.
    expect(harborImageTag(broken.id, broken.contextDigest, undefined).split('-').pop()).toBe(
      tag.split('-').pop(),
    );
  });
});
