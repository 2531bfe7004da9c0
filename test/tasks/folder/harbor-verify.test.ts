/**
 * A model's Harbor trial judged from its verifier's report (the supervisor's, see
 * src/sandbox/harbor/verifier.ts; the real engine runs it in test/integration/harbor-verifier.test.ts):
 * the reward as the score, the note when a task that allows internet was verified without it, no
 * reward or a refused one as a failed trial by the agent's fault (src/agent/attribution.ts).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadHarborFolder } from '../../../src/catalogue/harbor/load.js';
import { harborVerdict } from '../../../src/catalogue/harbor/verify.js';
import type { SupervisorReport } from '../../../src/sandbox/harbor/supervisor.js';
import { verdictOf } from '../../../src/sandbox/harbor/verifier.js';
import { rewardFile, supervisorReport } from '../../sandbox/harbor/reports.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/harbor');

/** A supervisor's report of a clean run that wrote these /logs/verifier files. */
function report(
  logs: { txt?: string; json?: string },
  over: Partial<SupervisorReport> = {},
): SupervisorReport {
  return supervisorReport({
    rewardTxt: logs.txt === undefined ? null : rewardFile(logs.txt),
    rewardJson: logs.json === undefined ? null : rewardFile(logs.json),
    output: 'ran\n',
    ...over,
  });
}

describe('the Harbor verifier of a model trial', () => {
  it('reward 1 passes', () => {
    const verdict = harborVerdict(
      loadHarborFolder(join(FIXTURES, 'sound')),
      verdictOf(report({ txt: '1\n' }), 60),
    );
    expect(verdict).toEqual({
      flags: {
        reward: {
          reached: true,
          turn: null,
          kind: 'outcome',
          detail: 'Harbor verifier tests/test.sh: reward 1',
        },
      },
      score: 1,
      passed: true,
      // What test.sh printed and ended with goes to the trial record.
      verifier: { exit_code: 0, output: 'ran' },
    });
  });

  it('names an offline signature in a failed reward’s detail', () => {
    const verdict = harborVerdict(
      loadHarborFolder(join(FIXTURES, 'sound')),
      verdictOf(report({ txt: '0\n' }, { output: 'bash: line 3: uvx: command not found\n' }), 60),
    );
    expect(verdict.flags.reward?.detail).toBe(
      'Harbor verifier tests/test.sh: reward 0 (uvx is not installed (Harbor verifiers fetch it from the network))',
    );
    expect(verdict.verifier.output).toBe('bash: line 3: uvx: command not found');
  });

  it('keeps a partial reward as the score, and says the task that allows internet ran without', () => {
    const verdict = harborVerdict(
      loadHarborFolder(join(FIXTURES, 'partial-reward')),
      verdictOf(report({ json: '{"reward": 0.25, "lines_right": 1}' }), 60),
    );
    expect(verdict.passed).toBe(false);
    expect(verdict.score).toBe(0.25);
    expect(verdict.flags.reward?.detail).toBe(
      'Harbor verifier tests/test.sh: reward 0.25 (reward.json: reward 0.25, lines_right 1); run without network, though task.toml allows internet',
    );
    // Every named metric is kept for the trial's record.
    expect(verdict.rewards).toEqual({ reward: 0.25, lines_right: 1 });
  });

  it('a verifier that writes no reward fails the trial by the agent’s fault, with its output', () => {
    const verdict = harborVerdict(loadHarborFolder(join(FIXTURES, 'sound')), verdictOf(report({}), 60));
    expect(verdict.passed).toBe(false);
    expect(verdict.score).toBe(0);
    expect(verdict.fault).toEqual({
      kind: 'sabotaged_checks',
      detail:
        'Harbor verifier tests/test.sh: no reward: the verifier wrote neither /logs/verifier/reward.txt nor reward.json (ran)',
    });
  });

  it('a refused reward scores 0 and fails the trial, whatever the file says', () => {
    const run = verdictOf(report({ txt: '1' }, { detached: ['python3[42]'] }), 60);
    const verdict = harborVerdict(loadHarborFolder(join(FIXTURES, 'sound')), run);
    expect(verdict.passed).toBe(false);
    expect(verdict.score).toBe(0);
    expect(run.tampered).toContain('python3[42]');
    expect(verdict.fault?.kind).toBe('sabotaged_checks');
  });
});
