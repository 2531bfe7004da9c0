/**
 * The reward rule of a model trial's Harbor verifier (src/sandbox/harbor/verifier.ts), on the
 * supervisor's reports: a reward counts only when test.sh's tree wrote it and nothing left or
 * outlived that tree; a timeout is a timeout; a report must carry the run's nonce.
 */
import { describe, expect, it } from 'vitest';
import { parseReport, type SupervisorReport } from '../../../src/sandbox/harbor/supervisor.js';
import { verdictOf } from '../../../src/sandbox/harbor/verifier.js';
import { rewardFile, supervisorReport } from './reports.js';

const report = (over: Partial<SupervisorReport> = {}) =>
  supervisorReport({ rewardTxt: rewardFile('1\n'), ...over });

describe("the Harbor verifier's reward rule", () => {
  it('counts the reward of a tree that neither left processes behind nor lost any', () => {
    expect(verdictOf(report(), 60)).toEqual({
      reward: { ok: true, reward: 1, metrics: {} },
      exitCode: 0,
      timedOut: false,
      output: 'ok',
      tampered: null,
    });
  });

  it('refuses it (reward 0) when a process left the tree while test.sh ran', () => {
    const run = verdictOf(report({ detached: ['python3[31]', 'sh[40]'] }), 60);
    expect(run.reward).toEqual({ ok: true, reward: 0, metrics: {} });
    expect(run.tampered).toBe(
      "reward refused: process(es) left tests/test.sh's process tree while it ran (python3[31], sh[40]), so its reward may not be test.sh's own (it read 1)",
    );
  });

  it('refuses it when a process outlived test.sh, or survived the kills', () => {
    expect(verdictOf(report({ outlived: ['sleep[9]'] }), 60).tampered).toMatch(
      /outlived tests\/test.sh \(sleep\[9\]\)/,
    );
    const many = verdictOf(report({ outlived: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] }), 60).tampered;
    expect(many).toContain('(a, b, c, d, e and 2 more)');
    expect(verdictOf(report({ unkilled: ['x[3]'] }), 60).tampered).toMatch(/survived the verifier's kill/);
  });

  it('a timeout is a timeout with no reward (test.sh itself outlived its time), said in the output', () => {
    const run = verdictOf(report({ timedOut: true, exitCode: null, outlived: [], output: 'waiting' }), 5);
    expect(run).toEqual({
      reward: { ok: false, problem: 'tests/test.sh did not finish within 5 s and was killed' },
      exitCode: null,
      timedOut: true,
      output: 'waiting\n[tests/test.sh killed after 5 s]',
      tampered: null,
    });
  });

  it('a reward file that is no regular file, or too long, is no reward; reward.txt wins over reward.json', () => {
    const fifo = { regular: false, data: '', cut: false };
    expect(verdictOf(report({ rewardTxt: fifo }), 60).reward).toEqual({
      ok: false,
      problem: '/logs/verifier/reward.txt is not a regular file',
    });
    expect(verdictOf(report({ rewardTxt: { regular: true, data: '', cut: true } }), 60).reward).toMatchObject(
      {
        ok: false,
      },
    );
    expect(verdictOf(report({ rewardJson: fifo }), 60).reward).toMatchObject({ ok: true, reward: 1 });
    const json = rewardFile('{"reward": 0.5}');
    expect(verdictOf(report({ rewardTxt: null, rewardJson: json }), 60).reward).toMatchObject({
      reward: 0.5,
    });
  });

  it('a killed test.sh reports the shell-style exit code', () => {
    expect(verdictOf(report({ exitCode: null, signal: 9 }), 60).exitCode).toBe(137);
  });

  it('reads a report only on the line with its own nonce', () => {
    const line = (nonce: string, r: unknown) =>
      `agent-bench-verifier ${nonce} ${Buffer.from(JSON.stringify(r)).toString('base64')}\n`;
    const out = Buffer.from(`noise\n${line('other', report({ exitCode: 3 }))}${line('abc', report())}`);
    expect(parseReport(out, 'abc')).toEqual(report());
    expect(parseReport(out, 'missing')).toBeNull();
    expect(parseReport(Buffer.from(line('abc', { exitCode: 'x' })), 'abc')).toBeNull();
  });
});
