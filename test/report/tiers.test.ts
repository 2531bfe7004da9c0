import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tiersCommand } from '../../src/cli/commands/tiers.js';
import { computeTiers, TIER_DEFINITIONS } from '../../src/report/tiers.js';
import { tiersJson, tiersMarkdown } from '../../src/report/tiers-format.js';
import { UsageError } from '../../src/util/errors.js';
import { MISS, NO_TOOLS, OUTCOME_ONLY, PASS, result } from '../helpers/result-builder.js';

const three = (spec: typeof PASS) => [spec, spec, spec];

describe('computeTiers', () => {
  it('tier 1 when every suite task passes pass^k; clear time sums the per-task mean agent time', () => {
    const rows = computeTiers([
      result({
        task: 'a',
        model: 'm',
        trials: [
          { ...PASS, elapsedSec: 10 },
          { ...PASS, elapsedSec: 20 },
        ],
      }),
      result({
        task: 'b',
        model: 'm',
        trials: [
          { ...PASS, elapsedSec: 5 },
          { ...PASS, elapsedSec: 5 },
        ],
      }),
    ]);
    expect(rows).toEqual([
      {
        model: 'm',
        tier: 1,
        reasons: [],
        totalClearTimeSec: 20,
        tasksPassed: 2,
        tasksRun: 2,
        suiteSize: 2,
        outcomeOnlyTasks: [],
        validToolCallRate: 1,
        comparable: true,
        comparison: 'k=2',
      },
    ]);
  });

  it('tier 2 when outcomes are reached in most trials of every task but process flags were dropped', () => {
    const [row] = computeTiers([
      result({ task: 'a', model: 'm', trials: three(PASS) }),
      result({ task: 'b', model: 'm', trials: [OUTCOME_ONLY, OUTCOME_ONLY, MISS] }),
    ]);
    expect(row).toMatchObject({ tier: 2, tasksPassed: 1, outcomeOnlyTasks: ['b'] });
    expect(row?.reasons[0]).toBe('b: outcome reached, not pass^k (process flags: p:observed 33%)');
  });

  it('tier 4 when fewer than half the trials make a valid tool call (refused calls do not count)', () => {
    const [row] = computeTiers([
      result({ task: 'a', model: 'm', trials: [NO_TOOLS, { ...NO_TOOLS, calls: 'invalid' }, PASS] }),
      result({ task: 'b', model: 'm', trials: [NO_TOOLS, NO_TOOLS, PASS] }),
    ]);
    expect(row).toMatchObject({ tier: 4, totalClearTimeSec: 20 });
    expect(row?.validToolCallRate).toBeCloseTo(2 / 6);
    expect(row?.reasons[0]).toBe('valid tool call in 33% of trials');
  });

  it('exactly half the trials with a valid tool call is not "fewer than half"', () => {
    const [row] = computeTiers([
      result({ task: 'a', model: 'm', trials: [NO_TOOLS, OUTCOME_ONLY, OUTCOME_ONLY, NO_TOOLS] }),
    ]);
    expect(row?.validToolCallRate).toBe(0.5);
    expect(row?.tier).toBe(3); // outcome in 2 of 4 trials is not "most": tier 3 for the outcome, not 4 for tools
    expect(row?.reasons[0]).toBe('misses the outcome in most trials of: a');
  });

  it('a model that drives tools but misses an outcome in most trials is tier 3, and the notes name the task', () => {
    const [row] = computeTiers([
      result({ task: 'a', model: 'm', trials: three(PASS) }),
      result({ task: 'b', model: 'm', trials: [MISS, MISS, OUTCOME_ONLY] }),
    ]);
    expect(row).toMatchObject({ tier: 3, validToolCallRate: 1, outcomeOnlyTasks: [] });
    expect(row?.reasons).toEqual(['misses the outcome in most trials of: b']);
  });

  it('judges a model on the tasks it ran: a task not run is no failure, and is said once by count', () => {
    const rows = computeTiers([
      result({ task: 'a', model: 'full', trials: [PASS] }),
      result({ task: 'b', model: 'full', trials: [PASS] }),
      result({ task: 'c', model: 'full', trials: [PASS] }),
      result({ task: 'a', model: 'partial', trials: [PASS] }),
    ]);
    expect(rows.map((r) => [r.model, r.tier, r.tasksPassed, r.tasksRun, r.suiteSize])).toEqual([
      ['full', 1, 3, 3, 3],
      ['partial', 1, 1, 1, 3],
    ]);
    expect(rows[1]?.reasons).toEqual(['1/3 tasks run']);
    expect(tiersMarkdown(rows, ['a', 'b', 'c'])).toContain(
      '| 1 full discipline | partial | 10s | 1/1 | 0 | 100% | 1/3 tasks run |',
    );
  });

  it('a task a model failed still counts against it; a task it did not run does not', () => {
    const [row] = computeTiers(
      [
        result({ task: 'a', model: 'm', trials: three(PASS) }),
        result({ task: 'b', model: 'm', trials: three(MISS) }),
      ],
      ['a', 'b', 'c', 'd'],
    );
    expect(row).toMatchObject({ tier: 3, tasksPassed: 1, tasksRun: 2, suiteSize: 4 });
    expect(row?.reasons).toEqual(['misses the outcome in most trials of: b', '2/4 tasks run']);
  });

  it('the suite can name a task no model ran: tiers stand on the tasks run', () => {
    const rows = computeTiers([result({ task: 'a', model: 'm', trials: [PASS] })], ['a', 'z']);
    expect(rows[0]).toMatchObject({ tier: 1, tasksRun: 1, suiteSize: 2, reasons: ['1/2 tasks run'] });
  });

  it('no tier when the model ran no suite task', () => {
    const rows = computeTiers([result({ task: 'a', model: 'm', trials: [PASS] })], ['z']);
    expect(rows[0]).toMatchObject({
      tier: null,
      tasksRun: 0,
      totalClearTimeSec: null,
      reasons: ['0/1 tasks run'],
    });
    expect(tiersMarkdown(rows, ['z'])).toContain('| — none run | m |');
  });

  it('uses the newest result per (task, model); a newer unfinished run makes the task incomplete', () => {
    const old = result({ task: 'a', model: 'm', trials: [MISS], startedAt: '2025-01-01T00:00:00Z' });
    const fixed = result({ task: 'a', model: 'm', trials: [PASS], startedAt: '2025-02-01T00:00:00Z' });
    expect(computeTiers([fixed, old])[0]?.tier).toBe(1);
    const running = result({
      task: 'a',
      model: 'm',
      trials: [],
      k: 3,
      status: 'interrupted',
      startedAt: '2025-03-01T00:00:00Z',
    });
    expect(computeTiers([old, fixed, running])[0]).toMatchObject({
      tier: null,
      reasons: ['0/1 tasks run', 'not judged: the newest run of a is interrupted'],
    });
  });

  it('leaves harness-error trials out of every rate', () => {
    const [row] = computeTiers([
      result({ task: 'a', model: 'm', trials: [PASS, { status: 'error' }, PASS], k: 3 }),
    ]);
    expect(row).toMatchObject({ validToolCallRate: 1, tier: 2, outcomeOnlyTasks: ['a'] });
    const [allErrors] = computeTiers([result({ task: 'a', model: 'm', trials: [{ status: 'error' }] })]);
    expect(allErrors).toMatchObject({ tier: null, validToolCallRate: null });
    expect(allErrors?.reasons).toEqual(['0/1 tasks run', 'not judged: every trial of a was a harness error']);
  });

  it('a tampered trial never counts as reaching the outcome', () => {
    const [row] = computeTiers([
      result({ task: 'a', model: 'm', trials: [{ ...PASS, tamper: true }, { ...PASS, tamper: true }, PASS] }),
    ]);
    expect(row?.tier).toBe(3);
    expect(row?.reasons).toContain('tampering in 2 trial(s)');
    expect(row?.totalClearTimeSec).toBe(10);
  });

  it('a task without outcome flags reaches its outcome only by passing', () => {
    const processOnly = { flags: { 'p:read_docs': false } };
    const [row] = computeTiers([result({ task: 'a', model: 'm', trials: [processOnly, processOnly] })]);
    expect(row?.tier).toBe(3);
  });

  it('orders by tier, then tasks run, then clear time (unknown last), then name; no tier last', () => {
    const rows = computeTiers([
      result({ task: 'a', model: 'slow', trials: [{ ...PASS, elapsedSec: 50 }] }),
      result({ task: 'a', model: 'fast', trials: [{ ...PASS, elapsedSec: 5 }] }),
      result({ task: 'a', model: 'b-tie', trials: [{ ...PASS, elapsedSec: 5 }] }),
      result({ task: 'a', model: 'mid', trials: [OUTCOME_ONLY] }),
      result({ task: 'a', model: 'none', trials: [NO_TOOLS] }),
      result({ task: 'a', model: 'gone', trials: [], k: 1, status: 'running' }),
      result({ task: 'a', model: 'both', trials: [{ ...PASS, elapsedSec: 50 }] }),
      result({ task: 'b', model: 'both', trials: [{ ...PASS, elapsedSec: 50 }] }),
    ]);
    expect(rows.map((r) => `${r.tier}:${r.model}`)).toEqual([
      '1:both',
      '1:b-tie',
      '1:fast',
      '1:slow',
      '2:mid',
      '4:none',
      'null:gone',
    ]);
  });

  it('notes non-comparable settings', () => {
    const [row] = computeTiers([
      result({ task: 'a', model: 'm', trials: [PASS], nonComparable: ['max_turns overridden to 5'] }),
    ]);
    expect(row).toMatchObject({
      tier: 1,
      comparable: false,
      reasons: ['non-comparable settings: max_turns overridden to 5'],
    });
  });
});

describe('tiers across k and early stop', () => {
  it('orders models only against models of the same k and early stop, never across', () => {
    const rows = computeTiers([
      result({ task: 'a', model: 'k1-fast', trials: [{ ...PASS, elapsedSec: 1 }] }),
      result({ task: 'a', model: 'k3-slow', trials: three({ ...PASS, elapsedSec: 50 }) }),
      result({ task: 'a', model: 'k3-miss', trials: three(MISS) }),
      result({ task: 'a', model: 'k3-early', trials: [MISS], k: 3, earlyStop: true }),
    ]);
    expect(rows.map((r) => [r.comparison, r.model, r.tier])).toEqual([
      ['k=1', 'k1-fast', 1],
      ['k=3', 'k3-slow', 1],
      ['k=3', 'k3-miss', 3],
      ['k=3, early stop', 'k3-early', 3],
    ]);
    const md = tiersMarkdown(rows, ['a']);
    expect(md).toContain('one table per setting: models are compared only within a table');
    const headings = md.split('\n').filter((l) => l.startsWith('### '));
    expect(headings).toEqual(['### k=1', '### k=3', '### k=3, early stop']);
    // Each table holds only its own models.
    const k3 = md.slice(md.indexOf('### k=3\n'), md.indexOf('### k=3, early stop'));
    expect(k3).toContain('| k3-slow |');
    expect(k3).not.toContain('k1-fast');
    expect(k3).not.toContain('k3-early');
    expect(JSON.parse(tiersJson(rows, ['a'])).comparisons).toEqual(['k=1', 'k=3', 'k=3, early stop']);
  });

  it('notes an early-stopped result, with the trials its rates come from', () => {
    const [row] = computeTiers([
      result({ task: 'a', model: 'm', trials: three(PASS) }),
      result({ task: 'b', model: 'm', trials: [PASS, OUTCOME_ONLY], k: 3, earlyStop: true }),
      result({ task: 'c', model: 'm', trials: three(PASS), k: 3, earlyStop: true }),
    ]);
    expect(row?.reasons).toContain('early-stopped: b (2 of k=3 trials)');
  });

  it('a model whose tasks ran at different settings is compared only with the same mix, and says why', () => {
    const rows = computeTiers([
      result({ task: 'a', model: 'mixed', trials: three(PASS) }),
      result({ task: 'b', model: 'mixed', trials: [PASS] }),
      result({ task: 'a', model: 'same-mix', trials: three(MISS) }),
      result({ task: 'b', model: 'same-mix', trials: [MISS] }),
      result({ task: 'a', model: 'other-mix', trials: [PASS] }),
      result({ task: 'b', model: 'other-mix', trials: three(PASS) }),
      result({ task: 'a', model: 'even', trials: three(PASS) }),
      result({ task: 'b', model: 'even', trials: three(PASS) }),
    ]);
    expect(rows.map((r) => [r.model, r.comparison])).toEqual([
      ['even', 'k=3'],
      ['other-mix', 'mixed: k=1 (a); k=3 (b)'],
      ['mixed', 'mixed: k=1 (b); k=3 (a)'],
      ['same-mix', 'mixed: k=1 (b); k=3 (a)'],
    ]);
    expect(rows[2]?.reasons).toEqual(['results at different settings: k=1 (b); k=3 (a)']);
    const md = tiersMarkdown(rows, ['a', 'b']);
    expect(md).toContain('### mixed: k=1 (b); k=3 (a)');
    expect(md.split('\n').filter((l) => l.startsWith('### '))).toHaveLength(3);
  });

  it('with one setting throughout, one table that says which', () => {
    const md = tiersMarkdown(computeTiers([result({ task: 'a', model: 'm', trials: three(PASS) })]), ['a']);
    expect(md).toContain('Compared at k=3.');
    expect(md).not.toContain('###');
  });
});

describe('tiers output', () => {
  const rows = computeTiers([
    result({ task: 'a', model: 'qwen3:8b', trials: [PASS] }),
    result({ task: 'a', model: 'weird|name', trials: [NO_TOOLS] }),
  ]);

  it('Markdown prints the definition with the table', () => {
    const md = tiersMarkdown(rows, ['a']);
    for (const line of TIER_DEFINITIONS.split('\n')) expect(md).toContain(line);
    expect(md).toContain('| 1 full discipline | qwen3:8b | 10s | 1/1 | 0 | 100% |  |');
    expect(md).toContain(
      '| 4 cannot drive tools | weird\\|name | — | 0/1 | 0 | 0% | valid tool call in 0% of trials |',
    );
  });

  it('JSON carries the definitions, the suite and the rows', () => {
    const parsed = JSON.parse(tiersJson(rows, ['a'])) as {
      definitions: string[];
      suite: string[];
      models: unknown[];
    };
    expect(parsed.suite).toEqual(['a']);
    expect(parsed.definitions.length).toBeGreaterThan(3);
    expect(parsed.models).toHaveLength(2);
  });
});

describe('agent-bench report tiers', () => {
  it('reads a results folder and prints the table; --tasks sets the suite', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tiers-cmd-'));
    try {
      await writeFile(
        join(dir, 'a__m__1.json'),
        JSON.stringify(result({ task: 'a', model: 'm', trials: [PASS] })),
      );
      await writeFile(join(dir, 'notes.json'), '{"not": "a result"}');
      const edited = { ...result({ task: 'a', model: 'm', trials: [MISS] }), run_id: 'hand-edited' };
      await writeFile(join(dir, 'a__m__2.json'), JSON.stringify({ ...edited, pass_all_k: true }));
      const out: string[] = [];
      const err: string[] = [];
      const stderr = { write: (t: string) => err.push(t) } as unknown as NodeJS.WritableStream;
      await tiersCommand({ resultsDir: dir, format: 'md', write: (t) => void out.push(t), stderr });
      expect(out.join('')).toContain('| 1 full discipline | m |');
      expect(err).toEqual([
        `agent-bench: skipped ${join(dir, 'a__m__2.json')}: content does not match its result_hash (edited by hand or corrupted)\n`,
      ]);
      out.length = 0;
      await tiersCommand({ resultsDir: dir, format: 'json', tasks: 'a,b', write: (t) => void out.push(t) });
      expect(JSON.parse(out.join(''))).toMatchObject({
        suite: ['a', 'b'],
        models: [{ model: 'm', tier: 1, tasksRun: 1, suiteSize: 2, reasons: ['1/2 tasks run'] }],
      });
      await expect(tiersCommand({ resultsDir: dir, format: 'html' })).rejects.toThrow(UsageError);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
