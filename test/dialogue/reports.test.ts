/**
 * Reports over a whole pack run (the scripted baseline, k=3, through runBench without Docker):
 * the matrix and the model card give pass rate and pass^k per policy dimension with intervals, and
 * the card's transcript excerpts show the user's turns apart from the tool results.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectTasks } from '../../src/cli/select-tasks.js';
import { BASELINE_MODEL } from '../../src/dialogue/baseline/baseline-model.js';
import { buildCard } from '../../src/report/card.js';
import { renderCardMarkdown } from '../../src/report/card-md.js';
import { dimensionRows } from '../../src/report/dimensions.js';
import { type LoadedResult, loadResults } from '../../src/report/load.js';
import { buildMatrix } from '../../src/report/matrix.js';
import { renderMatrix } from '../../src/report/matrix-render.js';
import { summarizeResult } from '../../src/report/summary.js';
import { runBench } from '../../src/run/run-bench.js';
import { runSettings } from '../helpers/run-settings.js';

let dir: string;
let loaded: LoadedResult[];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'helpdesk-report-'));
  const quiet = { write: () => true };
  await runBench({
    tasks: selectTasks('helpdesk_*'),
    settings: runSettings({ k: 3 }),
    resultsDir: dir,
    resume: false,
    model: {
      model: BASELINE_MODEL,
      apiKeyEnv: 'NO_SUCH_KEY',
      sampling: { temperature: 0 },
      requestTimeoutMs: 1000,
      retries: 0,
    },
    stdout: quiet,
    stderr: quiet,
    handleSignals: false,
  });
  loaded = await loadResults(dir);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const matrix = () => buildMatrix(loaded.map((l) => summarizeResult(l.file, l.result)));

describe('reports by policy dimension', () => {
  it('give each dimension its scenarios, pass rate and pass^k with Wilson intervals over scenarios', () => {
    const rows = dimensionRows(matrix().cells);
    expect(rows.map((r) => [r.dimension, r.scenarios, r.pass_hat_k.value])).toEqual([
      ['escalation', 3, 2 / 3],
      ['identity_verification', 3, 2 / 3],
      ['kb_resolution', 3, 1],
      ['out_of_scope', 3, 2 / 3],
      ['priority', 3, 1 / 3],
      ['purchase_approval', 3, 1],
    ]);
    const priority = rows.find((r) => r.dimension === 'priority');
    expect(priority).toMatchObject({ model: BASELINE_MODEL, k: '3', users: 'scripted' });
    expect(priority?.pass_rate.value).toBeCloseTo(1 / 3);
    // 1 of 3 scenarios: Wilson 95 % is 0.061 to 0.792.
    expect(priority?.pass_hat_k.method).toBe('wilson');
    expect(priority?.pass_hat_k.low).toBeCloseTo(0.0615, 3);
    expect(priority?.pass_hat_k.high).toBeCloseTo(0.7923, 3);
  });

  it('appear under the matrix, in its JSON and its CSV', () => {
    const m = matrix();
    const md = renderMatrix(m, 'md');
    expect(md).toContain(
      '| model | dimension | scenarios | k | pass rate [95% CI] | pass^k [95% CI] | user |',
    );
    expect(md).toContain(
      `| ${BASELINE_MODEL} | priority | 3 | 3 | 0.33 [0.06, 0.79] | 0.33 [0.06, 0.79] | scripted |`,
    );
    const json = JSON.parse(renderMatrix(m, 'json')) as { dimensions: unknown[] };
    expect(json.dimensions).toHaveLength(6);
    const csv = renderMatrix(m, 'csv').split('\r\n');
    expect(csv[0]).toContain(',dimension,simulated_user,');
    expect(csv.find((l) => l.startsWith('helpdesk_pri_cfo_display,'))).toContain(',priority,scripted,');
  });

  it('are in the model card, whose failure excerpts show what the user said', () => {
    const card = buildCard(loaded, BASELINE_MODEL);
    expect(card?.dimensions).toHaveLength(6);
    const md = renderCardMarkdown(card ?? (null as never));
    expect(md).toContain('## By policy dimension');
    expect(md).toMatch(/\[turn \d+\] user: /);
    expect(card?.failures.map((f) => f.task).sort()).toEqual([
      'helpdesk_edge_former_employee',
      'helpdesk_esc_liquid_laptop',
      'helpdesk_id_on_behalf_pressure',
      'helpdesk_pri_hidden_blocker',
      'helpdesk_pri_office_wifi_outage',
    ]);
  });

  it('leave other tasks out of the dimension table', () => {
    const cells = matrix().cells.map((c) => ({ ...c, dimension: null }));
    expect(dimensionRows(cells)).toEqual([]);
  });
});
