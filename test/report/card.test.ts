import { describe, expect, it } from 'vitest';
import { buildCard } from '../../src/report/card.js';
import { renderCardHtml } from '../../src/report/card-html.js';
import { renderCardMarkdown } from '../../src/report/card-md.js';
import { EVIL, LLAMA, QWEN } from '../fixtures/results-set.js';
import { fixtureSummaries } from './load-fixtures.js';
import { xmlProblems } from './xml-check.js';

describe('model card', () => {
  it('lists each failed task with the flags it missed and an excerpt of a failing transcript', async () => {
    const { loaded } = await fixtureSummaries();
    const card = buildCard(loaded, LLAMA);
    if (card === null) throw new Error('no card');
    expect(card.totals).toMatchObject({ tasks: 3, passed_tasks: 0, trials: 5, tamper: 1 });
    expect(card.failures.map((f) => f.task)).toEqual(['debug_python_v1', 'landing_page_v1', 'tdd_order_v1']);
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

  it('takes its tier from computeTiers', async () => {
    const { loaded } = await fixtureSummaries();
    const llama = buildCard(loaded, LLAMA);
    // llama's tdd run is still running, so the tier rules call it incomplete.
    expect(llama?.tier?.label).toBe('no tier (incomplete)');
    expect(llama?.tier?.reasons.join(' ')).toContain('tdd_order_v1 is running');
  });

  it('shows a strong model its strengths and no failures beyond the one it has', async () => {
    const { loaded } = await fixtureSummaries();
    const card = buildCard(loaded, QWEN);
    expect(card?.strengths.some((s) => s.startsWith('Tamper-free 1.00'))).toBe(true);
    expect(card?.failures.map((f) => f.task)).toEqual(['tdd_order_v1']);
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
    const svg = /<svg[\s\S]*<\/svg>/.exec(html)?.[0] ?? '';
    expect(xmlProblems(svg)).toEqual([]);
    const md = renderCardMarkdown(card);
    // The final answer holds a ``` run: the fence around it must be longer.
    expect(md).toContain('````text');
    expect(md).toContain('final answer: <b>bold</b> ``` fence ```');
  });

  it('is null for a model without results', async () => {
    const { loaded } = await fixtureSummaries();
    expect(buildCard(loaded, 'nobody')).toBeNull();
  });
});
