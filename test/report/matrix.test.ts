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
    expect(debugQwen?.text).toBe('✓ pass^3 · 5.33 turns · 11s');
    expect(cellAt(m, 'tdd_order_v1', QWEN)?.text).toBe('✗ 0.89 (3 of k=3 trials)');
    expect(cellAt(m, 'debug_python_v1', LLAMA)?.text).toBe('✗ 0.17 (3 of k=3 trials) (tamper ×1)');
    expect(cellAt(m, 'tdd_order_v1', LLAMA)?.text).toBe('✗ 0.67 (1 of k=3 trials) (running)');
    // --early-stop: the score comes from the one trial that ran, and says so.
    expect(cellAt(m, 'debug_python_v1', EVIL)?.text).toBe('✗ 0.25 (1 of k=3 trials, early-stopped)');
    expect(cellAt(m, 'debug_python_v1', GEMMA)?.text).toBe('✓ pass^1 · 5 turns · 10s †');
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
    const piped = renderMatrix({ models: ['a|b'], tasks: ['t'], comparisons: [], cells: [] }, 'md');
    expect(piped).toBe('No results found.\n');
  });

  it('says under the table when cells were run at different k or early stop', async () => {
    const { summaries } = await fixtureSummaries();
    const m = buildMatrix(summaries);
    expect(m.comparisons).toEqual(['k=1', 'k=3', 'k=3, early stop']);
    const md = renderMatrix(m, 'md');
    expect(md).toContain(
      '> Not every cell was run at the same settings: k=1 (3 cells), k=3 (4 cells), k=3, early stop (1 cell).',
    );
    expect(md).toContain('early-stopped = the run stopped at its first failed trial');
    // One setting: no such note.
    const alike = buildMatrix(summaries.filter((s) => s.comparison === 'k=3'));
    expect(renderMatrix(alike, 'md')).not.toContain('Not every cell');
  });

  it('renders JSON and CSV with the same numbers', async () => {
    const { summaries } = await fixtureSummaries();
    const m = buildMatrix(summaries, [QWEN]);
    const json = JSON.parse(renderMatrix(m, 'json')) as typeof m;
    expect(json.cells.map((c) => c.score)).toEqual([1, 1, 0.8889]);
    expect(json.cells.map((c) => c.score_basis)).toEqual([
      '3 of k=3 trials',
      '1 of k=1 trials',
      '3 of k=3 trials',
    ]);
    const csv = renderMatrix(m, 'csv').trimEnd().split('\r\n');
    expect(csv[0]).toMatch(/^task,model,status,k,trials_run,passed_trials,pass_all_k,pass_hat_k,score,/);
    expect(csv[0]).toMatch(/,early_stopped,score_basis,comparison,comparable,/);
    expect(csv[3]).toMatch(/^tdd_order_v1,qwen3:8b,complete,3,3,2,false,0,0\.8889,/);
    const early = renderMatrix(buildMatrix(summaries, [EVIL]), 'csv')
      .trimEnd()
      .split('\r\n');
    expect(early[1]).toContain(',true,"1 of k=3 trials, early-stopped","k=3, early stop",true,');
    const earlyJson = JSON.parse(renderMatrix(buildMatrix(summaries, [EVIL]), 'json')) as typeof m;
    expect(earlyJson.cells[0]).toMatchObject({
      early_stopped: true,
      trials_run: 1,
      k: 3,
      score_basis: '1 of k=3 trials, early-stopped',
      comparison: 'k=3, early stop',
    });
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
