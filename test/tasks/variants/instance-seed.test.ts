/** Trial i's instance: a pure function of the task, its version, the variant seed and i. */
import { describe, expect, it } from 'vitest';
import { instanceSeed } from '../../../src/tasks/variants/instance-seed.js';

const draw = { taskId: 'debug_python_v1', taskVersion: 'abc123', variantSeed: 1, trialIndex: 0 };

describe('instanceSeed', () => {
  it('is the same for the same draw, on any call (resume, shards and other machines draw the same)', () => {
    expect(instanceSeed(draw)).toBe(instanceSeed({ ...draw }));
    expect(instanceSeed(draw)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('changes with each of its inputs', () => {
    const seeds = new Set([
      instanceSeed(draw),
      instanceSeed({ ...draw, trialIndex: 1 }),
      instanceSeed({ ...draw, variantSeed: 2 }),
      instanceSeed({ ...draw, taskVersion: 'abc124' }),
      instanceSeed({ ...draw, taskId: 'debug_js_v1' }),
    ]);
    expect(seeds.size).toBe(5);
  });

  it('is pinned: a change of the derivation would change every published instance', () => {
    expect([0, 1, 2].map((trialIndex) => instanceSeed({ ...draw, trialIndex }))).toEqual([
      '909d5134230000c2',
      'cfa4078ad58d4cc6',
      '60552c56af003c32',
    ]);
  });
});
