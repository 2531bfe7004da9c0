import { describe, expect, it } from 'vitest';
import { buildMatrix, cellAt } from '../../src/report/matrix.js';
import { renderMatrix } from '../../src/report/matrix-render.js';
import { EVIL, GEMMA, LLAMA, QWEN } from '../fixtures/results-set.js';
import { fixtureSummaries } from './load-fixtures.js';

describe('matrix', () => {
  it('keeps the newest result per (task, model) and writes the cells the issue specifies', async () => {
    const { summaries } = await fixtureSummaries();
    const m = buildMatrix(summaries);
    expect(m.models).toEqual([EVIL, GEMMA, LLAMA, QWEN].sort((a, b) => a.localeCompare(b)));
    expect(m.tasks).toEqual(['debug_python_v1', 'landing_page_v1', 'tdd_order_v1']);
    // Two runs of (debug, qwen): the older failed, the newer passed 3/3.
    const debugQwen = cellAt(m, 'debug_python_v1', QWEN);
    expect(debugQwen?.run_id).toBe('20250102T100000000Z-0002');
    expect(debugQwen?.text).toBe('✅ pass^3 · 5.33 turns · 11s');
    expect(cellAt(m, 'tdd_order_v1', QWEN)?.text).toBe('✗ 0.89 (k=3)');
    expect(cellAt(m, 'debug_python_v1', LLAMA)?.text).toBe('✗ 0.17 (k=3) (tamper ×1)');
    expect(cellAt(m, 'tdd_order_v1', LLAMA)?.text).toBe('✗ 0.67 (k=3) (running)');
    expect(cellAt(m, 'debug_python_v1', GEMMA)?.text).toBe('✅ pass^1 · 5 turns · 10s †');
    expect(cellAt(m, 'landing_page_v1', GEMMA)).toBeUndefined();
  });

  it('renders Markdown with a footnote, a dash for missing cells and escaped pipes', async () => {
    const { summaries } = await fixtureSummaries();
    const md = renderMatrix(buildMatrix(summaries), 'md');
    const lines = md.split('\n');
    expect(lines[0]).toBe(
      `| task | ${[EVIL, GEMMA, LLAMA, QWEN].sort((a, b) => a.localeCompare(b)).join(' | ')} |`,
    );
    expect(lines.find((l) => l.startsWith('| landing_page_v1 '))).toContain('| — |');
    expect(md).toContain('> Newest result per (task, model).');
    expect(md).toContain('† = not comparable');
    const piped = renderMatrix({ models: ['a|b'], tasks: ['t'], cells: [] }, 'md');
    expect(piped).toBe('No results found.\n');
  });

  it('renders JSON and CSV with the same numbers', async () => {
    const { summaries } = await fixtureSummaries();
    const m = buildMatrix(summaries, [QWEN]);
    const json = JSON.parse(renderMatrix(m, 'json')) as typeof m;
    expect(json.cells.map((c) => c.score)).toEqual([1, 1, 0.8889]);
    const csv = renderMatrix(m, 'csv').trimEnd().split('\r\n');
    expect(csv[0]).toMatch(/^task,model,status,k,trials_run,passed_trials,pass_all_k,pass_hat_k,score,/);
    expect(csv[3]).toMatch(/^tdd_order_v1,qwen3:8b,complete,3,3,2,false,0,0\.8889,/);
  });

  it('neutralises spreadsheet formulas in CSV cells', async () => {
    const { summaries } = await fixtureSummaries();
    const hostile = summaries
      .filter((s) => s.model === QWEN)
      .map((s) => ({ ...s, model: '=HYPERLINK("x")' }));
    const csv = renderMatrix(buildMatrix(hostile), 'csv');
    expect(csv).toContain(`"'=HYPERLINK(""x"")"`);
    expect(csv).not.toMatch(/,=HYPERLINK/);
  });
});
