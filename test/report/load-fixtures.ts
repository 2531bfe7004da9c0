/** The fixture results folder, loaded the way the report commands load a results folder. */
import { type LoadedResult, loadResults } from '../../src/report/load.js';
import { type ResultSummary, summarizeResult } from '../../src/report/summary.js';
import { FIXTURE_DIR } from '../fixtures/results-set.js';

export async function fixtureSummaries(): Promise<{ loaded: LoadedResult[]; summaries: ResultSummary[] }> {
  const loaded = await loadResults(FIXTURE_DIR);
  return { loaded, summaries: loaded.map((l) => summarizeResult(l.file, l.result)) };
}
