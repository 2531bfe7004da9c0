import { describe, expect, it } from 'vitest';
import { recordSurvivorWrites } from '../../src/agent/survivor-writes.js';
import type { TurnLog } from '../../src/results/trial.js';
import type { ExecTrace, ProcessRecord } from '../../src/sandbox/types.js';
import { proc, shell, traced } from '../scoring/call-fixtures.js';

const record = (pid: number, o: Partial<ProcessRecord> = {}): ProcessRecord => ({
  pid,
  parentPid: null,
  exe: '/usr/bin/sh',
  argv: ['sh'],
  cwd: '/workspace',
  stdin: null,
  runs: [],
  exitCode: null,
  signal: null,
  opens: [],
  removed: [],
  renamed: [],
  ...o,
});

const turn = (calls: TurnLog['tool_calls']): TurnLog =>
  ({ turn: 1, assistant_text: '', tool_calls: calls }) as unknown as TurnLog;

describe('recordSurvivorWrites', () => {
  it("records what a command's jobs wrote after it, from their trace followed to the end", () => {
    const job = {
      ...traced('loop &', { processes: [proc(['sleep', '1'], { pid: 40, exit: null })] }),
      alive_after: [40],
    };
    const followed: ExecTrace = {
      processes: [
        record(1, { exitCode: 0 }),
        record(40, {
          opens: [
            { path: '/workspace/out.txt', write: true },
            { path: '/dev/null', write: true },
          ],
        }),
        record(41, { renamed: [{ from: '/workspace/a.tmp', to: '/workspace/a.py' }] }),
      ],
      truncated: false,
    };
    const logs = [turn([job])];
    recordSurvivorWrites(logs, [followed]);
    expect(logs[0]?.tool_calls[0]?.survivor_writes).toEqual([
      '/workspace/a.py',
      '/workspace/a.tmp',
      '/workspace/out.txt',
    ]);
  });

  it('a traced command whose tracer ended with it left no job: none; a cut trace or an untraced one: unknown', () => {
    const quiet = { ...traced('pytest', {}), alive_after: [40] };
    const cut = {
      ...traced('loop &', { processes: [proc(['sleep', '1'], { pid: 50, exit: null })] }),
      alive_after: [50],
    };
    const untraced = { ...shell('loop &'), alive_after: [60] };
    const logs = [turn([quiet, cut, untraced])];
    recordSurvivorWrites(logs, [{ processes: [record(50)], truncated: true }]);
    const [a, b, c] = logs[0]?.tool_calls ?? [];
    expect(a?.survivor_writes).toEqual([]);
    expect(b?.survivor_writes).toBeUndefined();
    expect(c?.survivor_writes).toBeUndefined();
  });
});
