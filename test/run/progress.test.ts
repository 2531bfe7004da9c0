/** Progress: the words of the status line, the time-left estimate, and the live and plain modes, on an injected clock. */
import { describe, expect, it } from 'vitest';
import type { TrialEvent } from '../../src/results/events.js';
import { estimateLeftMs } from '../../src/run/estimate.js';
import { createProgress, eventLine, QUIET_MS } from '../../src/run/progress.js';
import { formatDuration, statusLine, type TrialPlace } from '../../src/run/progress-line.js';
import { createProgressState } from '../../src/run/progress-state.js';

const place = (over: Partial<TrialPlace> = {}): TrialPlace => ({
  taskNo: 2,
  tasks: 5,
  taskId: 'fix_bug_v1',
  trial: 3,
  k: 5,
  turn: 4,
  maxTurns: 30,
  ...over,
});

describe('the status line', () => {
  it('says task x/N · trial i/k · turn t/max, then trials done, elapsed and time left', () => {
    expect(statusLine({ running: [place()], done: 12, total: 25, elapsedMs: 302_000, leftMs: 370_000 })).toBe(
      'task 2/5 fix_bug_v1 · trial 3/5 · turn 4/30 · 12/25 trials · 5m02s elapsed · ~6m10s left',
    );
  });

  it('says it is estimating until a trial has finished, and "preparing" with nothing in flight', () => {
    expect(statusLine({ running: [], done: 0, total: 4, elapsedMs: 3_000, leftMs: null })).toBe(
      'preparing · 0/4 trials · 3s elapsed · estimating time left',
    );
  });

  it('sums up every trial in flight on one line, and leaves some out (+n more) rather than cut the tally', () => {
    const running = [
      place(),
      place({ taskNo: 3, taskId: 'refactor_v1', trial: 1, turn: 2, maxTurns: 20 }),
      place({ taskNo: 3, taskId: 'refactor_v1', trial: 2, turn: 1, maxTurns: 20 }),
    ];
    const s = { running, done: 3, total: 25, elapsedMs: 61_000, leftMs: 3_723_000 };
    expect(statusLine(s)).toBe(
      '3 running: task 2/5 fix_bug_v1 · trial 3/5 · turn 4/30 | task 3/5 refactor_v1 · trial 1/5 · turn 2/20 | task 3/5 refactor_v1 · trial 2/5 · turn 1/20 · 3/25 trials · 1m01s elapsed · ~1h02m left',
    );
    const narrow = statusLine(s, 140);
    expect(narrow.length).toBeLessThanOrEqual(140);
    expect(narrow).toBe(
      '3 running: task 2/5 fix_bug_v1 · trial 3/5 · turn 4/30 | +2 more · 3/25 trials · 1m01s elapsed · ~1h02m left',
    );
    // Narrower still: the trial's place is cut, the tally stays whole.
    const tiny = statusLine(s, 80);
    expect(tiny.length).toBeLessThanOrEqual(80);
    expect(tiny.endsWith(' | +2 more · 3/25 trials · 1m01s elapsed · ~1h02m left')).toBe(true);
  });

  it('writes durations as 42s, 5m02s, 1h05m', () => {
    expect([0, 41_600, 60_000, 302_000, 3_599_000, 3_900_000].map(formatDuration)).toEqual([
      '0s',
      '42s',
      '1m00s',
      '5m02s',
      '59m59s',
      '1h05m',
    ]);
  });
});

describe('the time-left estimate', () => {
  it('is the wall time per finished trial times the trials left; unknown before the first, 0 at the end', () => {
    expect(estimateLeftMs({ elapsedMs: 60_000, done: 0, left: 10 })).toBeNull();
    expect(estimateLeftMs({ elapsedMs: 60_000, done: 3, left: 6 })).toBe(120_000);
    expect(estimateLeftMs({ elapsedMs: 60_000, done: 6, left: 0 })).toBe(0);
  });

  it('follows the run: resumed trials are not counted, a task that stops early shrinks the total', () => {
    let now = 1_000;
    const state = createProgressState(
      [
        { id: 'a', k: 3, maxTurns: 10 },
        { id: 'b', k: 3, maxTurns: 20 },
      ],
      now,
    );
    state.opened('a', 2); // one trial resumed
    const end = (trial: number): TrialEvent => ({
      type: 'trial_end',
      trial,
      status: 'passed',
      passed: true,
      score: 1,
      turns: 2,
    });
    state.event('a', { type: 'trial_start', trial: 1 });
    expect(state.status(now + 5_000)).toMatchObject({ done: 0, total: 5, leftMs: null });
    now += 20_000;
    state.event('a', end(1));
    // 20 s for one trial, four to go.
    expect(state.status(now)).toMatchObject({ done: 1, total: 5, elapsedMs: 20_000, leftMs: 80_000 });
    state.event('a', { type: 'trial_start', trial: 2 });
    now += 20_000;
    state.event('a', { type: 'trial_end', trial: 2, status: 'failed', passed: false, score: 0, turns: 1 });
    state.ended('a');
    state.event('b', { type: 'trial_start', trial: 0 });
    state.event('b', {
      type: 'model_reply',
      trial: 0,
      turn: 3,
      text: '',
      tool_calls: 1,
      latency_ms: 5,
      retries: 0,
    });
    const s = state.status(now);
    expect(s).toMatchObject({ done: 2, total: 5, leftMs: 60_000 });
    expect(s.running).toEqual([{ taskNo: 2, tasks: 2, taskId: 'b', trial: 1, k: 3, turn: 3, maxTurns: 20 }]);
    // b stops early after one trial: nothing is left.
    now += 10_000;
    state.event('b', end(0));
    state.ended('b');
    expect(state.status(now)).toMatchObject({ done: 3, total: 3, leftMs: 0, running: [] });
  });
});

/** A stream, a clock and a timer the test drives. */
function harness(o: { isTTY: boolean; env?: NodeJS.ProcessEnv }) {
  let out = '';
  const clock = { now: 0 };
  const timers: { ms: number; fn: () => void }[] = [];
  const progress = createProgress({
    stream: { write: (s: string) => (out += s), isTTY: o.isTTY, columns: 200 },
    env: o.env ?? {},
    now: () => clock.now,
    every: (ms, fn) => {
      const t = { ms, fn };
      timers.push(t);
      return () => timers.splice(timers.indexOf(t), 1);
    },
  });
  return {
    progress,
    clock,
    timers,
    tick: () => {
      for (const t of [...timers]) t.fn();
    },
    output: () => out,
    lines: () => out.split('\n').filter((l) => l !== ''),
  };
}

const PLAN = [
  { id: 'fix_bug_v1', k: 2, maxTurns: 30 },
  { id: 'refactor_v1', k: 2, maxTurns: 20 },
];

describe('plain lines (a pipe, a file, CI)', () => {
  it('prints one line per event, the tally with each verdict, and no terminal codes', () => {
    const h = harness({ isTTY: false });
    h.progress.plan(PLAN);
    h.progress.event('fix_bug_v1', { type: 'trial_start', trial: 0 });
    h.progress.event('fix_bug_v1', {
      type: 'tool_call',
      trial: 0,
      turn: 1,
      name: 'execute_command',
      arg: 'pytest -q',
      exit_code: 1,
      invalid: null,
      source: 'native',
    });
    h.clock.now = 90_000;
    h.progress.event('fix_bug_v1', {
      type: 'trial_end',
      trial: 0,
      status: 'passed',
      passed: true,
      score: 1,
      turns: 3,
    });
    h.progress.done();
    expect(h.output()).not.toContain('\r');
    expect(h.output()).not.toContain('\x1b[2K');
    const lines = h.lines().map(stripColour);
    expect(lines).toEqual([
      '[task 1/2 fix_bug_v1 · trial 1/2] start',
      '[task 1/2 fix_bug_v1 · trial 1/2 · turn 1/30] execute_command pytest -q -> exit 1',
      '[task 1/2 fix_bug_v1 · trial 1/2] PASS score 1.00 in 3 turns · 1/4 trials · 1m30s elapsed · ~4m30s left',
    ]);
  });

  it('says the status again after a minute without output, and not before', () => {
    const h = harness({ isTTY: false });
    h.progress.plan(PLAN);
    h.progress.event('refactor_v1', { type: 'trial_start', trial: 1 });
    h.clock.now = QUIET_MS - 1;
    h.tick();
    expect(h.lines()).toHaveLength(1);
    h.clock.now = QUIET_MS + 5_000;
    h.tick();
    expect(h.lines().at(-1)).toBe(
      '[progress] task 2/2 refactor_v1 · trial 2/2 · turn 1/20 · 0/4 trials · 1m05s elapsed · estimating time left',
    );
    // Just said: not again at the next tick.
    h.tick();
    expect(h.lines()).toHaveLength(2);
    h.progress.done();
    expect(h.timers).toHaveLength(0);
  });

  it('CI set: plain lines even on a terminal', () => {
    const h = harness({ isTTY: true, env: { CI: 'true' } });
    h.progress.plan(PLAN);
    h.progress.event('fix_bug_v1', { type: 'trial_start', trial: 0 });
    expect(h.output()).toBe('[task 1/2 fix_bug_v1 · trial 1/2] start\n');
  });
});

describe('the live line (a terminal)', () => {
  it('rewrites one line in place, prints verdicts and notes above it, and clears it at the end', () => {
    const h = harness({ isTTY: true });
    h.progress.plan(PLAN);
    h.progress.event('fix_bug_v1', { type: 'trial_start', trial: 0 });
    h.progress.event('fix_bug_v1', { type: 'trial_start', trial: 1 });
    h.progress.event('fix_bug_v1', {
      type: 'model_reply',
      trial: 1,
      turn: 2,
      text: 'thinking',
      tool_calls: 1,
      latency_ms: 10,
      retries: 0,
    });
    h.clock.now = 7_000;
    h.tick();
    const last = h.output().split('\r\x1b[2K').at(-1);
    expect(last).toBe(
      '2 running: task 1/2 fix_bug_v1 · trial 1/2 · turn 1/30 | task 1/2 fix_bug_v1 · trial 2/2 · turn 2/30 · 0/4 trials · 7s elapsed · estimating time left',
    );
    // Nothing but the live line so far: no newline.
    expect(h.output()).not.toContain('\n');
    h.progress.note('fix_bug_v1: results in results/x.json');
    h.progress.done();
    expect(h.output()).toContain('\r\x1b[2Kfix_bug_v1: results in results/x.json\n');
    expect(h.output().endsWith('\r\x1b[2K')).toBe(true);
    expect(h.timers).toHaveLength(0);
  });
});

function stripColour(s: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes are what is stripped
  return s.replace(/\x1b\[[0-9;]*m/g, '');
}

describe('eventLine', () => {
  const tally = (): string => '3/10 trials';
  const call: TrialEvent = {
    type: 'tool_call',
    trial: 2,
    turn: 4,
    name: 'run',
    source: 'text',
    arg: 'ls\n  -la',
    invalid: null,
    exit_code: 0,
  } as TrialEvent;
  const end: TrialEvent = {
    type: 'trial_end',
    trial: 2,
    status: 'failed',
    passed: false,
    score: 0.5,
    turns: 7,
  };

  it('prints every step on plain lines, a verdict with the tally', () => {
    expect(eventLine(call, place(), false, tally)).toBe(
      '[task 2/5 fix_bug_v1 · trial 3/5 · turn 4/30] run (text) ls -la -> exit 0',
    );
    expect(eventLine(end, place(), false, tally)).toMatch(/FAIL.* score 0\.50 in 7 turns · 3\/10 trials$/);
  });

  it('prints only verdicts and model errors on a live terminal, without the tally', () => {
    expect(eventLine(call, place(), true, tally)).toBeNull();
    expect(eventLine({ type: 'trial_start', trial: 2 }, place(), true, tally)).toBeNull();
    expect(eventLine(end, place(), true, tally)).toMatch(/in 7 turns$/);
    expect(
      eventLine({ type: 'model_error', trial: 2, turn: 4, error: 'boom' }, place(), true, tally),
    ).toMatch(/model error.*: boom$/);
  });

  it('prints no line for an empty model reply', () => {
    const reply = { type: 'model_reply', trial: 2, turn: 4, text: '  \n' } as TrialEvent;
    expect(eventLine(reply, place(), false, tally)).toBeNull();
  });
});
