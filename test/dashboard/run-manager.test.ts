/** A run started from the panel: its CLI arguments, and how its end is recorded. */
import { describe, expect, it } from 'vitest';
import { runArgs, runEnd } from '../../src/dashboard/run-manager.js';

describe('runArgs', () => {
  const req = { model: 'qwen', task: 'all', k: 3, skill_dir: null };
  it('names the model, tasks, k and results folder', () => {
    expect(runArgs(req, '/r', null)).toEqual([
      'run',
      '--model',
      'qwen',
      '--tasks',
      'all',
      '--k',
      '3',
      '--results-dir',
      '/r',
    ]);
  });
  it('adds the skill folder and the server URL when there are', () => {
    expect(runArgs({ ...req, skill_dir: '/s k' }, '/r', 'http://h/v1').slice(-4)).toEqual([
      '--skill-dir',
      '/s k',
      '--base-url',
      'http://h/v1',
    ]);
  });
});

describe('runEnd', () => {
  it('records a run stopped with a reason as cancelled, whatever its exit', () => {
    const end = runEnd('cancelled from the dashboard', null, 'SIGTERM');
    expect(end.line).toBe('(cancelled: cancelled from the dashboard)');
    expect(end.patch).toMatchObject({ status: 'cancelled', exit_code: null, signal: 'SIGTERM' });
  });
  it('records any other run by its exit: 0 succeeded, else failed', () => {
    expect(runEnd(null, 0, null)).toMatchObject({ line: '(exited with 0)', patch: { status: 'succeeded' } });
    expect(runEnd(null, 3, null)).toMatchObject({ line: '(exited with 3)', patch: { status: 'failed' } });
    expect(runEnd(null, null, 'SIGKILL')).toMatchObject({
      line: '(exited with SIGKILL)',
      patch: { status: 'failed' },
    });
  });
});
