/**
 * The name a model is shown by. llama-server reports its model as the file it loaded
 * (`/root/.cache/agent-bench/models/qwen-tiny-Q4_K_M.gguf`): results keep that full name, tables,
 * cards and the dashboard show the file stem (`qwen-tiny-Q4_K_M`, the quantization still in it), and
 * every command that takes a model accepts either. Other names (`qwen3:8b`, `org/Repo-GGUF:Q4_K_M`,
 * an LM Studio key) are shown as they are.
 */
import { UsageError } from '../util/errors.js';

// A name is a path when it is absolute (`/…`, `~/…`, `C:\…`), relative (`./`, `../`) or a model file.
const PATH = /^(?:[/\\~]|\.{1,2}[/\\]|[a-z]:[/\\])|\.gguf$/i;
const MODEL_FILE = /\.gguf$/i;
// A split GGUF's first part (`…-Q4_K_M-00001-of-00003.gguf`) names the whole model.
const SPLIT_PART = /-\d{5}-of-\d{5}$/;

/** The short name of one model, without regard to others: a path's file stem, anything else unchanged. */
export function shortModelName(model: string): string {
  return isPath(model) ? tail(model, 1) : model;
}

/**
 * The short name of each of models, unique within them: when two paths share a stem, each keeps as many
 * parent folders as tell it apart (`7B/ggml-model-q4_0`, `13B/ggml-model-q4_0`); a name that nothing
 * shorter tells apart is shown in full.
 */
export function shortModelNames(models: Iterable<string>): Map<string, string> {
  const all = [...new Set(models)];
  const depth = new Map(all.map((m) => [m, 1]));
  const shown = (m: string): string => (isPath(m) ? tail(m, depth.get(m) ?? 1) : m);
  for (;;) {
    // Only paths grow, and a path stops when its every folder is shown.
    const growing = colliding(all, shown).filter(
      (m) => isPath(m) && (depth.get(m) ?? 1) < segmentsOf(m).length,
    );
    if (growing.length === 0) break;
    for (const m of growing) depth.set(m, (depth.get(m) ?? 1) + 1);
  }
  const unresolved = new Set(colliding(all, shown));
  return new Map(all.map((m) => [m, unresolved.has(m) ? m : shown(m)]));
}

/** The models whose shown name another model shares. */
function colliding(models: readonly string[], shown: (m: string) => string): string[] {
  const count = new Map<string, number>();
  for (const m of models) count.set(shown(m), (count.get(shown(m)) ?? 0) + 1);
  return models.filter((m) => (count.get(shown(m)) ?? 0) > 1);
}

/** What a typed model name names among the models known: one of them, several, or none. */
export type ModelMatch =
  | { kind: 'found'; model: string }
  | { kind: 'ambiguous'; candidates: string[] }
  | { kind: 'unknown' };

/** The full name itself, or a short name as tables print it (or a path's plain stem). */
export function matchModelName(typed: string, known: Iterable<string>): ModelMatch {
  const models = [...new Set(known)].sort((a, b) => a.localeCompare(b));
  if (models.includes(typed)) return { kind: 'found', model: typed };
  const shorts = shortModelNames(models);
  const matches = models.filter((m) => shorts.get(m) === typed || shortModelName(m) === typed);
  if (matches.length === 0) return { kind: 'unknown' };
  return matches.length === 1
    ? { kind: 'found', model: matches[0] as string }
    : { kind: 'ambiguous', candidates: matches };
}

/**
 * The full name of the model typed, among the models known (those with results). An unknown name lists
 * the known ones (short names); a short name of several models lists them in full. `where` ends the
 * unknown-name message (` in results/`).
 */
export function resolveModelName(typed: string, known: Iterable<string>, where = ''): string {
  const models = [...new Set(known)];
  const match = matchModelName(typed, models);
  if (match.kind === 'found') return match.model;
  if (match.kind === 'ambiguous') throw ambiguousModel(typed, match.candidates);
  const list = models.length === 0 ? 'none' : sortedShortNames(models).join(', ');
  throw new UsageError(`no results for model ${typed}${where} (models with results: ${list})`);
}

export function ambiguousModel(typed: string, candidates: readonly string[]): UsageError {
  return new UsageError(
    `model ${typed} is ambiguous: it names ${candidates.join(', ')} (give one of them in full)`,
  );
}

/** The short names of models, sorted: how a message lists the models there are. */
export function sortedShortNames(models: Iterable<string>): string[] {
  return [...shortModelNames(models).values()].sort((a, b) => a.localeCompare(b));
}

function isPath(model: string): boolean {
  return PATH.test(model);
}

function segmentsOf(path: string): string[] {
  return path.split(/[/\\]+/).filter((s) => s !== '');
}

/** The last n segments of a path, the model file's extension and a split part's suffix dropped. */
function tail(path: string, n: number): string {
  const segments = segmentsOf(path);
  const stem = (segments.at(-1) ?? path).replace(MODEL_FILE, '').replace(SPLIT_PART, '');
  const parents = segments.slice(0, -1);
  return [...(n <= 1 ? [] : parents.slice(-(n - 1))), stem].join('/');
}
