/** The CLI arguments of a run started from the panel. */
import { describe, expect, it } from 'vitest';
import { runArgs } from '../../src/dashboard/run-manager.js';

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
