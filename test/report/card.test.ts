import { describe, expect, it } from 'vitest';
import { buildCard } from '../../src/report/card.js';
import { renderCardHtml } from '../../src/report/card-html.js';
import { renderCardMarkdown } from '../../src/report/card-md.js';
import { EVIL, LLAMA, QWEN } from '../fixtures/results-set.js';
import { NO_TOOLS, PASS, result } from '../helpers/result-builder.js';
import { fixtureSummaries } from './load-fixtures.js';
import { xmlProblems } from './xml-check.js';

describe('model card', () => {
  it('lists each failed task with the flags it missed and an excerpt of a failing transcript', async () => {
    const { loaded } = await fixtureSummaries();
    const card = buildCard(loaded, LLAMA);
    if (card === null) throw new Error('no card');
    // tdd_order_v1 is still running: shown in the task table, but no failure and not in the totals.
    expect(card.totals).toMatchObject({ tasks: 2, suite: 3, passed_tasks: 0, tamper: 1 });
    expect(card.cells.map((c) => c.task)).toContain('tdd_order_v1');
    expect(card.failures.map((f) => f.task)).toEqual(['debug_python_v1', 'landing_page_v1']);
    const debug = card.failures[0];
    expect(debug?.missed.map((m) => m.flag)).toEqual([
      'error_interpret',
      'self_verify',
      'file_edit',
      'file_read',
    ]);
    // The lowest-scoring failed trial is the example: trial 1 answered in prose without a single call.
    expect(debug?.example?.trial).toBe(1);
    expect(debug?.example?.turns[0]?.text).toBe('You should change the minus to a plus in main.py.');
    expect(card.weaknesses.some((w) => w.startsWith('Reliability'))).toBe(true);
  });

  it('takes its tier from computeTiers, judged on the tasks run, and says "2/3 tasks run" once', async () => {
    const { loaded } = await fixtureSummaries();
    const llama = buildCard(loaded, LLAMA);
    if (llama === null) throw new Error('no card');
    // llama's tdd run is still running: not judged, so the tier stands on the two tasks it finished.
    expect(llama.tier?.label).toBe('Tier 3: drives tools but misses outcomes');
    expect(llama.tier?.reasons.join(' ')).toContain('tdd_order_v1 is running');
    const md = renderCardMarkdown(llama);
    expect(md).toContain('0/2 tasks pass^k (2/3 tasks run)');
    expect(md.split('2/3 tasks run').length - 1).toBe(1);
    const html = renderCardHtml(llama);
    expect(html.split('2/3 tasks run').length - 1).toBe(1);
  });

  it('--tasks limits the card (and its tier) to those tasks', async () => {
    const { loaded } = await fixtureSummaries();
    const card = buildCard(loaded, QWEN, ['debug_python_v1', 'landing_page_v1']);
    if (card === null) throw new Error('no card');
    expect(card.cells.map((c) => c.task)).toEqual(['debug_python_v1', 'landing_page_v1']);
    expect(card.totals).toMatchObject({ tasks: 2, suite: 2 });
    expect(card.failures).toEqual([]); // its one failure, tdd_order_v1, is outside the card
    expect(card.radar.axes.map((a) => a.id)).not.toContain('task:tdd_order_v1');
    expect(card.tier?.label).toMatch(/^Tier 1/);
    // A task it never ran is no failure: the card says it ran 2 of 3.
    const wider = buildCard(loaded, QWEN, ['debug_python_v1', 'landing_page_v1', 'never_run_v1']);
    expect(wider?.totals).toMatchObject({ tasks: 2, suite: 3, passed_tasks: 2 });
    expect(wider?.failures).toEqual([]);
    expect(renderCardMarkdown(wider as NonNullable<typeof wider>)).toContain('(2/3 tasks run)');
    expect(buildCard(loaded, QWEN, ['never_run_v1'])).toBeNull();
  });

  it('shows a strong model its strengths and no failures beyond the one it has', async () => {
    const { loaded } = await fixtureSummaries();
    const card = buildCard(loaded, QWEN);
    expect(card?.strengths.some((s) => s.startsWith('Tamper-free 1.00'))).toBe(true);
    expect(card?.failures.map((f) => f.task)).toEqual(['tdd_order_v1']);
    // Cost against completion among every model of the folder, this one's label in bold.
    const html = card === null ? '' : renderCardHtml(card);
    expect(html).toContain('<h2>Cost against completion</h2>');
    expect(card?.pareto.points.map((p) => p.model)).toContain(LLAMA);
    expect(html).toMatch(/<text [^>]*font-weight="bold">qwen/);
    expect(card?.failures[0]?.missed).toEqual([
      { flag: 'red_observed', kind: 'process', reach_rate: 0.6667 },
    ]);
  });

  it('renders HTML with everything model-written escaped, and Markdown whose fences hold', async () => {
    const { loaded } = await fixtureSummaries();
    const card = buildCard(loaded, EVIL);
    if (card === null) throw new Error('no card');
    const html = renderCardHtml(card);
    expect(html).not.toMatch(/<img src=x|<script>window|<b>bold/);
    expect(html).toContain('&lt;script&gt;window.__pwned = 2&lt;/script&gt;');
    for (const svg of html.match(/<svg[\s\S]*?<\/svg>/g) ?? []) expect(xmlProblems(svg)).toEqual([]);
    const md = renderCardMarkdown(card);
    // The final answer holds a ``` run: the fence around it must be longer.
    expect(md).toContain('````text');
    expect(md).toContain('final answer: <b>bold</b> ``` fence ```');
  });

  it('shows axes without evidence as n/a, never as strengths, in every format', () => {
    const loaded = [
      { file: 'a.json', result: result({ task: 'a', model: 'mute', trials: [NO_TOOLS, NO_TOOLS] }) },
    ];
    const card = buildCard(loaded, 'mute');
    if (card === null) throw new Error('no card');
    expect(card.strengths).toEqual([]);
    expect(card.unmeasured).toEqual(
      expect.arrayContaining(['Format compliance n/a', 'No tool hallucination n/a', 'Tamper-free n/a']),
    );
    const md = renderCardMarkdown(card);
    expect(md).toContain('## No evidence');
    expect(md).toContain('- Tamper-free n/a');
    expect(md).not.toMatch(/Tamper-free 1\.00/);
    const html = renderCardHtml(card);
    expect(html).toContain('<li>Tamper-free n/a</li>');
    expect(html).not.toMatch(/Tamper-free 1\.00/);
    // A model that did call tools has evidence, and no such section.
    const able = buildCard(
      [{ file: 'b.json', result: result({ task: 'a', model: 'able', trials: [PASS] }) }],
      'able',
    );
    expect(able?.strengths).toContain('Tamper-free 1.00');
    expect(renderCardMarkdown(able as NonNullable<typeof able>)).not.toContain('## No evidence');
  });

  it("says over how many distinct instances a variant task's trials ran", () => {
    const drawn = result({ task: 'a', model: 'able', trials: [PASS, PASS, PASS] });
    drawn.trials = drawn.trials.map((t, i) => ({ ...t, variant: ['v1', 'v2', 'v1'][i] as string }));
    const fixed = result({ task: 'b', model: 'able', trials: [PASS, PASS, PASS] });
    const card = buildCard(
      [
        { file: 'a.json', result: drawn },
        { file: 'b.json', result: fixed },
      ],
      'able',
    );
    expect(card?.notes).toEqual(['seeded variants: a (3 trials on 2 distinct instances)']);
    expect(renderCardMarkdown(card as NonNullable<typeof card>)).toContain(
      'Note: seeded variants: a (3 trials on 2 distinct instances)',
    );
  });

  it('says which scores come from an early-stopped run, and over how many trials each reach rate is', async () => {
    const { loaded } = await fixtureSummaries();
    const card = buildCard(loaded, EVIL);
    if (card === null) throw new Error('no card');
    expect(card.notes).toContain(
      'early-stopped (scores and reach rates from fewer than k trials): debug_python_v1 (1 of k=3 trials, early-stopped)',
    );
    expect(card.failures[0]?.basis).toBe('1 of k=3 trials, early-stopped');
    const md = renderCardMarkdown(card);
    expect(md).toContain('| debug_python_v1 | ✗ 0.25 (1 of k=3 trials, early-stopped) |');
    expect(md).toContain('Flags missed (reach rates over 1 of k=3 trials, early-stopped):');
    expect(md).toContain('Note: early-stopped');
    expect(renderCardHtml(card)).toContain('Flags missed (reach rates over 1 of k=3 trials, early-stopped)');
    // qwen ran its tasks at two different k: the card says so.
    expect(buildCard(loaded, QWEN)?.notes).toEqual([
      'tasks run at different settings: k=1 (landing_page_v1); k=3 (debug_python_v1, tdd_order_v1)',
    ]);
  });

  it('is null for a model without results', async () => {
    const { loaded } = await fixtureSummaries();
    expect(buildCard(loaded, 'nobody')).toBeNull();
  });
});
