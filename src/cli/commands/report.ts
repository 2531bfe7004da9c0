/** `agent-bench report matrix|radar|card|axes`: pictures and tables generated from the results files alone. */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { buildRadarData } from '../../report/axes.js';
import { compareResults } from '../../report/axes-compare.js';
import { buildAxes } from '../../report/axes-ops.js';
import { type AxesFormat, renderAxes, renderComparison } from '../../report/axes-render.js';
import { buildCard } from '../../report/card.js';
import { renderCardHtml } from '../../report/card-html.js';
import { renderCardMarkdown } from '../../report/card-md.js';
import { newestLadderOf, readLadderCharts } from '../../report/ladder-chart.js';
import { type LoadedResult, loadResults } from '../../report/load.js';
import { buildMatrix } from '../../report/matrix.js';
import { type MatrixFormat, renderMatrix } from '../../report/matrix-render.js';
import { buildPareto, PARETO_COSTS, type ParetoCost } from '../../report/pareto.js';
import { renderParetoJson, renderParetoMd } from '../../report/pareto-render.js';
import { renderPng } from '../../report/png.js';
import { readPriceTable } from '../../report/price-table.js';
import { renderRadarHtml } from '../../report/radar.js';
import { MAX_SERIES } from '../../report/radar-svg.js';
import { summarizeResult } from '../../report/summary.js';
import {
  ambiguousModel,
  matchModelName,
  resolveModelName,
  sortedShortNames,
} from '../../results/short-model-name.js';
import { UsageError } from '../../util/errors.js';
import { readableResultsDir } from '../results-dir.js';

interface CommonOptions {
  resultsDir: string;
  /** File to write; stdout when absent. */
  out?: string;
  /** Injectable for tests. */
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
}

export interface MatrixOptions extends CommonOptions {
  format: string;
  models?: string;
}

export interface RadarOptions extends CommonOptions {
  models: string;
  png?: boolean;
}

export interface CardOptions extends CommonOptions {
  model: string;
  format: string;
  /** Comma-separated task ids the card covers (default: every task with results). */
  tasks?: string;
}

export interface AxesOptions extends CommonOptions {
  format: string;
  /** USD per million tokens, or per hour, by model (price-table.ts). */
  priceTable?: string;
  /** Two models: paired per-task differences instead of the table. */
  compare?: string[];
  models?: string;
  /** Cost against completion instead of the tables: true for the default cost (USD with a price table, else tokens). */
  pareto?: string | true;
}

export async function reportAxesCommand(o: AxesOptions): Promise<void> {
  const format = oneOf<AxesFormat>('--format', o.format, ['md', 'json', 'csv']);
  if (o.compare !== undefined && o.compare.length !== 2)
    throw new UsageError(`--compare takes two model names, A and B (got ${o.compare.length})`);
  const prices = o.priceTable === undefined ? undefined : await readPriceTable(o.priceTable);
  const results = (await loadOrFail(o.resultsDir, o.stderr ?? process.stderr)).map((l) => l.result);
  const known = results.map((r) => r.model);
  if (o.compare !== undefined) {
    const [a, b] = o.compare.map((m) => resolveModelName(m, known, ` in ${o.resultsDir}`)) as [
      string,
      string,
    ];
    const of = (model: string) => results.filter((r) => r.model === model);
    await emit(o, renderComparison(compareResults(of(a), of(b)), { a, b }, format));
    return;
  }
  const models = o.models === undefined ? undefined : new Set(resolveAll(o.models, known, o.resultsDir));
  const shown = models === undefined ? results : results.filter((r) => models.has(r.model));
  if (shown.length === 0) throw new UsageError('--models takes comma-separated model names (got none)');
  const rows = buildAxes(shown, prices === undefined ? {} : { prices });
  if (o.pareto === undefined) {
    await emit(o, renderAxes(rows, format));
    return;
  }
  const chart = buildPareto(rows, paretoCost(o.pareto, prices !== undefined));
  if (format === 'csv') throw new UsageError('--pareto prints md or json (got --format csv)');
  await emit(o, format === 'json' ? renderParetoJson(chart) : renderParetoMd(chart));
}

function paretoCost(given: string | true, priced: boolean): ParetoCost {
  if (given === true) return priced ? 'usd' : 'tokens';
  const cost = oneOf<ParetoCost>('--pareto', given, PARETO_COSTS);
  if (cost === 'usd' && !priced) throw new UsageError('--pareto usd needs --price-table');
  return cost;
}

export async function reportMatrixCommand(o: MatrixOptions): Promise<void> {
  const format = oneOf<MatrixFormat>('--format', o.format, ['md', 'json', 'csv']);
  const loaded = await loadOrFail(o.resultsDir, o.stderr ?? process.stderr);
  const known = loaded.map((l) => l.result.model);
  const models = o.models === undefined ? undefined : resolveAll(o.models, known, o.resultsDir);
  await emit(o, renderMatrix(buildMatrix(summaries(loaded), models), format));
}

export async function reportRadarCommand(o: RadarOptions): Promise<void> {
  const typed = splitList(o.models);
  if (typed.length === 0 || typed.length > MAX_SERIES) {
    throw new UsageError(
      `--models takes 1 to ${MAX_SERIES} comma-separated model names (got ${typed.length})`,
    );
  }
  const all = summaries(await loadOrFail(o.resultsDir, o.stderr ?? process.stderr));
  const known = all.map((s) => s.model);
  const models = typed.map((m) => {
    const match = matchModelName(m, known);
    if (match.kind === 'ambiguous') throw ambiguousModel(m, match.candidates);
    return match.kind === 'found' ? match.model : null;
  });
  const unknown = typed.filter((_, i) => models[i] === null);
  const list = sortedShortNames(known).join(', ');
  if (unknown.length === typed.length)
    throw new UsageError(
      `no results for ${unknown.join(', ')} in ${o.resultsDir} (models with results: ${list})`,
    );
  for (const m of unknown)
    (o.stderr ?? process.stderr).write(
      `agent-bench: no results for model ${m}; drawn empty (models with results: ${list})\n`,
    );
  const domains = await builtInDomains();
  const html = renderRadarHtml(
    buildRadarData(
      all,
      models.map((m, i) => m ?? (typed[i] as string)),
      domains,
    ),
  );
  if (o.png === true) {
    const out = resolve(o.out ?? 'radar.png');
    await renderPng(html, out);
    (o.stderr ?? process.stderr).write(`wrote ${out}\n`);
    return;
  }
  await emit(o, html);
}

export async function reportCardCommand(o: CardOptions): Promise<void> {
  const format = oneOf('--format', o.format, ['html', 'md']);
  const tasks = o.tasks === undefined ? undefined : splitList(o.tasks);
  if (tasks !== undefined && tasks.length === 0)
    throw new UsageError('--tasks takes comma-separated task ids (got none)');
  const loaded = await loadOrFail(o.resultsDir, o.stderr ?? process.stderr);
  const where = ` in ${o.resultsDir}`;
  const model = resolveModelName(
    o.model,
    loaded.map((l) => l.result.model),
    where,
  );
  const built = buildCard(loaded, model, tasks, await builtInDomains());
  if (built === null)
    throw new UsageError(
      `no results for model ${o.model}${where}${tasks === undefined ? '' : ` for tasks ${tasks.join(', ')}`}`,
    );
  const ladder = newestLadderOf(await readLadderCharts(o.resultsDir), model);
  const card = ladder === null ? built : { ...built, ladder };
  await emit(o, format === 'md' ? renderCardMarkdown(card) : renderCardHtml(card));
}

async function loadOrFail(dir: string, stderr: NodeJS.WritableStream): Promise<LoadedResult[]> {
  const loaded = await loadResults(readableResultsDir(dir), (line) => stderr.write(`agent-bench: ${line}\n`));
  if (loaded.length === 0)
    throw new UsageError(`no results files in ${dir} (run \`agent-bench run\` first, or pass --results-dir)`);
  return loaded;
}

const summaries = (loaded: readonly LoadedResult[]) => loaded.map((l) => summarizeResult(l.file, l.result));

async function emit(o: CommonOptions, text: string): Promise<void> {
  if (o.out === undefined) {
    (o.stdout ?? process.stdout).write(text);
    return;
  }
  await writeFile(resolve(o.out), text, 'utf8');
  (o.stderr ?? process.stderr).write(`wrote ${resolve(o.out)}\n`);
}

/** Each built-in task's domain (its task.toml `domain`): the radar groups its task spokes by it. */
async function builtInDomains(): Promise<Map<string, string>> {
  const { allTasks } = await import('../../catalogue/built-in.js');
  return new Map(allTasks().map((t) => [t.id, t.meta.domain]));
}

/** Each comma-separated name typed, as the full name of a model with results (short names accepted). */
function resolveAll(typed: string, known: readonly string[], dir: string): string[] {
  return splitList(typed).map((m) => resolveModelName(m, known, ` in ${dir}`));
}

function splitList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  const found = allowed.find((a) => a === value);
  if (found === undefined)
    throw new UsageError(`${flag} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)})`);
  return found;
}
