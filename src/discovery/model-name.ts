/**
 * What a model's name says about it: Ollama tags (`qwen3:30b-a3b-instruct-2507-q4_K_M`), LM Studio keys
 * (`gemma-3-270m-it-qat`), Hugging Face repos and GGUF file names. Only what the name states is returned;
 * everything else is null.
 */

export interface ParsedModelName {
  raw: string;
  family: string | null;
  /** Total parameters in billions (`7b`, `0.6b`, `135m` = 0.135). */
  parameters: number | null;
  /** MoE active parameters in billions (`a3b`). */
  activeParameters: number | null;
  /** Gemma-3n effective parameters in billions (`e4b`). */
  effectiveParameters: number | null;
  quantization: string | null;
  /** Quantization-aware trained weights (`qat`). */
  qat: boolean;
}

// A token starts after a non-alphanumeric character, so `a3b` and `e4b` never read as sizes, nor `r7b`.
const START = '(?<![a-z0-9.])';
const END = '(?![a-z0-9])';
const NUM = '(\\d+(?:\\.\\d+)?)';
const SIZE_B = new RegExp(`${START}${NUM}b${END}`, 'i');
const SIZE_M = new RegExp(`${START}${NUM}m${END}`, 'i');
const ACTIVE = new RegExp(`${START}a${NUM}b${END}`, 'i');
const EFFECTIVE = new RegExp(`${START}e${NUM}b${END}`, 'i');
const QAT = new RegExp(`${START}qat${END}`, 'i');
const QUANT = new RegExp(
  `${START}(i?q\\d(?:_[a-z0-9]{1,3}){0,3}|tq[12]_0|mxfp4|nvfp4|fp8|f(?:p)?(?:16|32)|bf16|\\d{1,2}-?bit|int[48])${END}`,
  'i',
);

export function parseModelName(raw: string): ParsedModelName {
  const base = raw.trim().replace(/\.gguf$/i, '');
  const segments = base.split(/[\\/]/).filter((s) => s !== '');
  const last = segments.at(-1) ?? base;
  // The file name speaks first; a directory (`7B/ggml-model-q4_0.gguf`) only fills in what it lacks.
  const find = (re: RegExp): RegExpExecArray | null => re.exec(last) ?? re.exec(base);
  return {
    raw,
    family: familyOf(base, segments),
    parameters: parametersOf(last) ?? parametersOf(base),
    activeParameters: number(find(ACTIVE)),
    effectiveParameters: number(find(EFFECTIVE)),
    quantization: normalizeQuantization(find(QUANT)?.[1] ?? null),
    qat: QAT.test(base),
  };
}

/** Upper-case llama.cpp spelling: `q4_K_M` -> `Q4_K_M`, `fp16` -> `F16`, `4bit` -> `4BIT`. */
export function normalizeQuantization(q: string | null): string | null {
  if (q === null || q.trim() === '') return null;
  const upper = q.trim().toUpperCase().replace('-BIT', 'BIT');
  if (upper === 'FP16') return 'F16';
  if (upper === 'FP32') return 'F32';
  return upper;
}

/** A parameter count written the way servers and names write it: `8.2B`, `135M`, `7b`. */
export function parseParameterSize(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([BMK])\s*$/i.exec(text);
  if (m === null) return null;
  const n = Number(m[1]);
  const unit = (m[2] ?? '').toUpperCase();
  return round(unit === 'B' ? n : unit === 'M' ? n / 1000 : n / 1_000_000);
}

function parametersOf(text: string): number | null {
  const billions = number(SIZE_B.exec(text));
  if (billions !== null) return billions;
  // `m` is read only without a `b` size: `Qwen2.5-7B-Instruct-1M` names a 1M-token context, not 1M parameters.
  const millions = number(SIZE_M.exec(text));
  return millions === null ? null : round(millions / 1000);
}

function familyOf(base: string, segments: string[]): string | null {
  const colon = base.lastIndexOf(':');
  // Ollama `[namespace/]name:tag`: the name is the family, unless it is a Hugging Face repo
  // (`hf.co/org/Repo-GGUF:Q4_K_M`) or a Windows path.
  if (colon > 0 && !/^hf\.co\//i.test(base) && !base.includes('\\') && !base.slice(colon).includes('/')) {
    return (base.slice(0, colon).split('/').at(-1) ?? '').toLowerCase() || null;
  }
  // LM Studio `key@quant` and tags after a colon are not part of the name.
  // `s`: to the end whatever it holds, so the first `:` or `@` decides (not one scan per `:`).
  const name = (segments.at(-1) ?? base).replace(/[:@].*$/s, '').replace(/-gguf$/i, '');
  const words: string[] = [];
  for (const word of name.split('-')) {
    if (
      SIZE_B.test(word) ||
      SIZE_M.test(word) ||
      ACTIVE.test(word) ||
      EFFECTIVE.test(word) ||
      QUANT.test(word)
    )
      break;
    if (/^(instruct|it|chat|base|qat|gguf)$/i.test(word)) break;
    words.push(word);
  }
  return words.length === 0 ? null : words.join('-').toLowerCase();
}

function number(m: RegExpExecArray | null): number | null {
  return m?.[1] === undefined ? null : Number(m[1]);
}

function round(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}
