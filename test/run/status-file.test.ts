/** --status-file: the run's progress as whole JSON files, on change, every second and at the end; a broken path warns once. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRunStatus, type RunStatusFile } from '../../src/results/run-status.js';
import { createProgress } from '../../src/run/progress.js';
import type { RunStatus } from '../../src/run/progress-line.js';
import { openStatusFile } from '../../src/run/status-file.js';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'ab-status-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const status = (over: Partial<RunStatus> = {}): RunStatus => ({
  running: [{ taskNo: 1, tasks: 2, taskId: 'fix_v1', trial: 2, k: 3, turn: 4, maxTurns: 30 }],
  done: 1,
  total: 6,
  elapsedMs: 65_400,
  leftMs: 300_000,
  ...over,
});
const read = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as RunStatusFile;

describe('the status file', () => {
  it('holds the status line and its parts', () => {
    const path = join(tempDir(), 'status.json');
    openStatusFile(path, () => {}).write(status());
    expect(read(path)).toEqual({
      line: 'task 1/2 fix_v1 · trial 2/3 · turn 4/30 · 1/6 trials · 1m05s elapsed · ~5m00s left',
      running: status().running,
      done: 1,
      total: 6,
      elapsed_ms: 65_400,
      left_ms: 300_000,
      finished: false,
    });
  });

  it('writes at most every interval, but always the last status of the run', () => {
    const path = join(tempDir(), 'status.json');
    let t = 0;
    const file = openStatusFile(
      path,
      () => {},
      200,
      () => t,
    );
    file.write(status({ done: 1 }));
    t = 100;
    file.write(status({ done: 2 }));
    expect(read(path).done).toBe(1);
    t = 250;
    file.write(status({ done: 3 }));
    expect(read(path).done).toBe(3);
    t = 260;
    file.write(status({ done: 6, running: [] }), true);
    expect(read(path)).toMatchObject({ done: 6, finished: true });
  });

  it('warns once and goes on when the file cannot be written', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'plain'), 'x');
    const warnings: string[] = [];
    const file = openStatusFile(join(dir, 'plain', 'status.json'), (m) => warnings.push(m), 0);
    file.write(status());
    file.write(status());
    expect(warnings).toEqual([`cannot write the status file ${join(dir, 'plain', 'status.json')}: ENOTDIR`]);
  });
});

describe('progress feeds the status', () => {
  it('on every event, on its own timer, and once more when done', () => {
    const seen: [RunStatus, boolean][] = [];
    let t = 0;
    const ticks: (() => void)[] = [];
    const progress = createProgress({
      stream: { write: () => true },
      env: {},
      now: () => t,
      every: (_ms, fn) => {
        ticks.push(fn);
        return () => {};
      },
      onStatus: (s, finished) => seen.push([s, finished]),
    });
    progress.plan([{ id: 'fix_v1', k: 2, maxTurns: 10 }]);
    progress.taskOpened('fix_v1', 2);
    progress.event('fix_v1', { type: 'trial_start', trial: 0 } as never);
    expect(seen.at(-1)?.[0].running.map((r) => r.trial)).toEqual([1]);
    const before = seen.length;
    t = 5_000;
    for (const tick of ticks) tick();
    expect(seen.length).toBeGreaterThan(before);
    expect(seen.at(-1)?.[0].elapsedMs).toBe(5_000);
    progress.done();
    expect(seen.at(-1)?.[1]).toBe(true);
  });
});

describe('reading a status file back', () => {
  it('takes a file the run wrote and refuses half, foreign or garbled ones', () => {
    const path = join(tempDir(), 'status.json');
    openStatusFile(path, () => {}).write(status());
    const text = readFileSync(path, 'utf8');
    expect(parseRunStatus(text)?.line).toMatch(/^task 1\/2 fix_v1 · trial 2\/3/);
    expect(parseRunStatus(text.slice(0, 40))).toBeNull();
    expect(parseRunStatus('{"line": 3, "done": 1}')).toBeNull();
    expect(parseRunStatus(JSON.stringify({ ...JSON.parse(text), left_ms: 'soon' }))).toBeNull();
    expect(parseRunStatus('null')).toBeNull();
  });
});
