/** The `agent-bench models` table: one row per model, `?` for anything nobody reported. */
import type { DiscoveredModel, ValueSource } from './types.js';

const HEADER = ['NAME', 'PARAMS', 'QUANT', 'SIZE', 'MAX CONTEXT', 'TOOLS', 'SOURCES'];

/** Printed once under all tables. */
export const MODELS_LEGEND = [
  'PARAMS total/active (MoE), eN = effective (Gemma-3n). MAX CONTEXT = the training context, not what a server was started with.',
  'SOURCES of p parameters, q quantization, w weight size, c context: server = its API, file = GGUF header,',
  'name = parsed from the model name, estimate = parameters × bits per weight (size shown as ~). ? = unknown.',
].join('\n');

export function modelsTable(models: readonly DiscoveredModel[]): string {
  if (models.length === 0) return '  (no models)\n';
  const rows = [HEADER, ...models.map(row)];
  const widths = HEADER.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const lines = rows.map((r) => `  ${r.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ')}`.trimEnd());
  return `${lines.join('\n')}\n`;
}

function row(m: DiscoveredModel): string[] {
  const size =
    m.weightBytes === null ? '?' : `${m.weightSource === 'estimate' ? '~' : ''}${formatBytes(m.weightBytes)}`;
  const sources = [
    source('p', m.sources.parameters),
    source('q', m.sources.quantization),
    source('w', m.weightSource),
    source('c', m.sources.contextLength),
  ].filter((s) => s !== null);
  return [
    m.name,
    params(m),
    m.quantization ?? '?',
    size,
    m.contextLength === null ? '?' : String(m.contextLength),
    m.toolSupport === null ? '?' : m.toolSupport ? 'yes' : 'no',
    sources.join(' '),
  ];
}

/** `4.7 GiB`; under 0.1 GiB in MiB (`60 MiB`), where one decimal of GiB would read 0.0; under 1 MiB in KiB. */
export function formatBytes(bytes: number): string {
  const mib = bytes / 2 ** 20;
  if (mib < 1) return `${Math.max(1, Math.round(bytes / 1024))} KiB`;
  if (mib < 10) return `${mib.toFixed(1)} MiB`;
  if (bytes < 0.1 * 2 ** 30) return `${Math.round(mib)} MiB`;
  return `${(bytes / 2 ** 30).toFixed(1)} GiB`;
}

/** `8.2B`, `30B/3B` (total/active), `e4B` (effective only), `?`. */
function params(m: DiscoveredModel): string {
  const total = m.parameters === null ? null : billions(m.parameters);
  if (total === null && m.effectiveParameters !== null) return `e${billions(m.effectiveParameters)}`;
  if (total === null) return m.activeParameters === null ? '?' : `?/${billions(m.activeParameters)}`;
  return m.activeParameters === null ? total : `${total}/${billions(m.activeParameters)}`;
}

function billions(b: number): string {
  if (b < 0.001) return String(Math.round(b * 1e9)); // test-sized models
  if (b < 1) return `${Math.round(b * 1000)}M`;
  return `${b >= 10 ? Math.round(b) : Math.round(b * 10) / 10}B`;
}

function source(letter: string, s: ValueSource | null): string | null {
  return s === null ? null : `${letter}:${s}`;
}
