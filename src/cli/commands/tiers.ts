/** `agent-bench report tiers`: the tier definition and the table, from the results files alone. */
import { loadResults, sortedUnique } from '../../report/load.js';
import { computeTiers } from '../../report/tiers.js';
import { tiersJson, tiersMarkdown } from '../../report/tiers-format.js';
import { UsageError } from '../../util/errors.js';
import { readableResultsDir } from '../results-dir.js';

export interface TiersOptions {
  resultsDir: string;
  format: string;
  /** Comma-separated task ids that make up the suite (default: every task with results). */
  tasks?: string;
  write?: (text: string) => void;
  stderr?: NodeJS.WritableStream;
}

export async function tiersCommand(o: TiersOptions): Promise<void> {
  if (o.format !== 'md' && o.format !== 'json')
    throw new UsageError(`--format must be md or json, not ${o.format}`);
  const stderr = o.stderr ?? process.stderr;
  const results = (
    await loadResults(readableResultsDir(o.resultsDir), (line) => stderr.write(`agent-bench: ${line}\n`))
  ).map((f) => f.result);
  const given = o.tasks
    ?.split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  const suite =
    given !== undefined && given.length > 0
      ? sortedUnique(given)
      : sortedUnique(results.map((r) => r.task_id));
  const rows = computeTiers(results, suite);
  const write = o.write ?? ((text: string) => void process.stdout.write(text));
  write(o.format === 'json' ? tiersJson(rows, suite) : tiersMarkdown(rows, suite));
}
