/** Past 12 tasks the radar's outcome chart has one spoke per domain, the mean of its tasks, listed on hover. */
import { describe, expect, it } from 'vitest';
import { buildRadarData, MAX_TASK_SPOKES, taskDomain } from '../../src/report/axes.js';
import { renderRadarSvg } from '../../src/report/radar-svg.js';
import { summarizeResult } from '../../src/report/summary.js';
import { opsResult, P } from './ops-results.js';

/** Every task passes but those failing, which score 0 and reach no outcome flag. */
const summaries = (tasks: readonly string[], failing: readonly string[] = []) =>
  tasks.map((task, i) => {
    const s = summarizeResult(`${i}.json`, opsResult({ task, model: 'm', trials: [P] }));
    return failing.includes(task) ? { ...s, skills: {}, score: 0 } : s;
  });

const DEBUG = ['debug_a_v1', 'debug_b_v1', 'debug_c_v1'];
const MANY = [...DEBUG, ...Array.from({ length: 11 }, (_, i) => `edit_${String(i).padStart(2, '0')}_v1`)];

describe('task spokes', () => {
  it('one per task up to the limit', () => {
    const tasks = MANY.slice(0, MAX_TASK_SPOKES);
    const ids = buildRadarData(summaries(tasks), ['m']).axes.map((a) => a.id);
    expect(ids.filter((id) => id.startsWith('task:'))).toHaveLength(MAX_TASK_SPOKES);
  });

  it('one per domain past it: the mean of its tasks, which the spoke lists', () => {
    const data = buildRadarData(summaries(MANY, ['debug_a_v1']), ['m']);
    const spokes = data.axes.filter((a) => a.id.startsWith('domain:') || a.id.startsWith('task:'));
    expect(spokes.map((a) => a.label)).toEqual(['debug (3 tasks)', 'edit (11 tasks)']);
    expect(spokes[0]?.tasks).toEqual(DEBUG);
    const value = data.series[0]?.values[data.axes.findIndex((a) => a.id === 'domain:debug')];
    expect(value).toBe(0.667);
    const svg = renderRadarSvg(data);
    expect(svg).toContain('<title>1. debug (3 tasks): debug_a_v1, debug_b_v1, debug_c_v1</title>');
    expect(svg).toContain('Tasks by domain');
  });

  it("takes the task's own domain when the catalogue gives it", () => {
    const domains = new Map(DEBUG.map((t) => [t, 'debugging']));
    const data = buildRadarData(summaries(MANY), ['m'], domains);
    expect(data.axes.map((a) => a.id)).toContain('domain:debugging');
  });
});

describe('taskDomain', () => {
  it("is the catalogue's, else a dialogue's policy dimension, else the id's first word", () => {
    expect(taskDomain('debug_python_v1', new Map([['debug_python_v1', 'debugging']]), null)).toBe(
      'debugging',
    );
    expect(
      taskDomain('esc_phishing', new Map(), { dialogue: { dimension: 'escalation', user: 'scripted' } }),
    ).toBe('escalation');
    expect(taskDomain('tdd_strict_v1', new Map(), null)).toBe('tdd');
    expect(taskDomain('plain', new Map(), null)).toBe('plain');
  });
});
