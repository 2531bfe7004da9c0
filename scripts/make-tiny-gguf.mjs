#!/usr/bin/env node
/**
 * Writes a tiny, valid GGUF v3 model (llama architecture, 2 layers, n_embd 64, F32 weights from a
 * seeded PRNG, byte-level SentencePiece vocabulary of ~380 tokens, ChatML template) that the
 * llama.cpp bundled with node-llama-cpp loads and generates from, so tests and users can check the
 * embedded backend's plumbing without downloading a real model. Two behaviours:
 *   babble     random weights: it prints noise and never calls a tool (the default)
 *   tool-call  a bigram model that, under node-llama-cpp's function calling, calls
 *              execute_command {"command": "ls"} on every turn
 *
 *   node scripts/make-tiny-gguf.mjs [out.gguf] [--seed N] [--mode babble|tool-call]
 *
 * Same options, same bytes.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { GGUF, serializeGguf } from './gguf-serialize.mjs';

const N_EMBD = 64;
const N_LAYER = 2;
const N_HEAD = 4;
const N_FF = 128;
// One token per character: the agent's system prompt and tool documentation alone are ~2k tokens.
const N_CTX = 4096;
const ALIGNMENT = 32;
/** Logit a tool-call rule gives its next token; random weights and chance overlaps give a few units. */
const RULE_LOGIT = 30;

// Token types of the llama (SentencePiece) vocabulary.
const TOK_NORMAL = 1;
const TOK_UNKNOWN = 2;
const TOK_CONTROL = 3;
const TOK_BYTE = 6;

const CHATML_TEMPLATE =
  "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

/** The vocabulary: control tokens, all 256 byte fallbacks (SPM needs them), printable ASCII, a few pieces. */
function tinyVocab() {
  const tokens = [];
  const add = (text, type, score = 0) => tokens.push({ text, type, score });
  add('<unk>', TOK_UNKNOWN);
  add('<s>', TOK_CONTROL);
  add('</s>', TOK_CONTROL);
  add('<|im_start|>', TOK_CONTROL);
  add('<|im_end|>', TOK_CONTROL);
  for (let b = 0; b < 256; b++) add(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`, TOK_BYTE);
  // SentencePiece writes a space as U+2581; single characters merge into the pieces below by score.
  const pieces = ['\u2581'];
  for (let c = 0x21; c < 0x7f; c++) pieces.push(String.fromCharCode(c));
  pieces.push('\u2581t', '\u2581th', '\u2581the', 'in', 'er', 'on', '\u2581a', '\u2581c', '\u2581f', 'ing');
  // Generated, never produced by tokenizing: node-llama-cpp's generic function-call marker.
  pieces.push('||call:');
  for (const [i, p] of pieces.entries()) add(p, TOK_NORMAL, -i);
  return tokens;
}

/** mulberry32: small, seeded, deterministic across platforms. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Tensor shapes in ggml order (innermost dimension first), as llama.cpp's llama loader expects. */
function tensorShapes(nVocab) {
  const shapes = [['token_embd.weight', [N_EMBD, nVocab]]];
  for (let i = 0; i < N_LAYER; i++) {
    shapes.push(
      [`blk.${i}.attn_norm.weight`, [N_EMBD]],
      [`blk.${i}.attn_q.weight`, [N_EMBD, N_EMBD]],
      [`blk.${i}.attn_k.weight`, [N_EMBD, N_EMBD]],
      [`blk.${i}.attn_v.weight`, [N_EMBD, N_EMBD]],
      [`blk.${i}.attn_output.weight`, [N_EMBD, N_EMBD]],
      [`blk.${i}.ffn_norm.weight`, [N_EMBD]],
      [`blk.${i}.ffn_gate.weight`, [N_EMBD, N_FF]],
      [`blk.${i}.ffn_up.weight`, [N_EMBD, N_FF]],
      [`blk.${i}.ffn_down.weight`, [N_FF, N_EMBD]],
    );
  }
  shapes.push(['output_norm.weight', [N_EMBD]], ['output.weight', [N_EMBD, nVocab]]);
  return shapes;
}

/** Norm weights are 1 (identity scale); everything else uniform in ±1/sqrt(fan-in), so activations stay finite. */
function tensorData(name, dims, random) {
  const count = dims.reduce((a, b) => a * b, 1);
  const data = new Float32Array(count);
  const isNorm = name.endsWith('norm.weight');
  const scale = name === 'token_embd.weight' ? 1 : 1 / Math.sqrt(dims[0]);
  for (let i = 0; i < count; i++) data[i] = isNorm ? 1 : (random() * 2 - 1) * scale;
  return data;
}

/**
 * Next-token rules [after, next, strength] of the 'tool-call' model. Where node-llama-cpp's function
 * grammar leaves a choice, the strongest allowed rule wins, which spells
 * `||call: execute_command({"command":"ls"})`. Second choices (strength < 1) cover positions where
 * the first is not allowed: node-llama-cpp re-tokenizes "||call:" into single characters and an
 * optional space, so the function name follows ':' or the space.
 */
const CALL_LS_RULES = [
  ['<0x0A>', '||call:', 1],
  ['||call:', 'e', 1],
  [':', '"', 1],
  [':', 'e', 0.5],
  ['\u2581', '"', 1],
  ['\u2581', 'e', 0.5],
  ['"', 'l', 1],
  ['"', '}', 0.6],
  ['l', 's', 1],
  ['s', '"', 1],
  ['}', '<|im_end|>', 1],
  [')', '<|im_end|>', 1],
];

/** Embedding dimension 0 is the same for every token: a bias channel, so a logit can be lowered for any input. */
const BIAS_DIM = 0;
const BYTE_TOKEN_LOGIT = -10;

/**
 * The 'tool-call' model is a bigram model: with the attention and feed-forward outputs zeroed, the
 * residual stream is the current token's embedding, and each rule adds that embedding's direction
 * to the next token's output row, so the rule's logit dominates. Byte-fallback tokens are pushed
 * down: the grammar accepts `<0x22>` as readily as `"`, and the rules are written for the latter.
 */
function applyRules(tensors, vocab, rules) {
  const byName = new Map(tensors.map((t) => [t.name, t.data]));
  for (const t of tensors) if (/attn_output|ffn_down/.test(t.name)) t.data.fill(0);
  const embd = byName.get('token_embd.weight');
  const out = byName.get('output.weight');
  const row = (data, id) => data.subarray(id * N_EMBD, (id + 1) * N_EMBD);
  const id = (text) => {
    const i = vocab.findIndex((t) => t.text === text);
    if (i === -1) throw new Error(`rule token not in vocabulary: ${text}`);
    return i;
  };

  for (let t = 0; t < vocab.length; t++) row(embd, t)[BIAS_DIM] = 1;
  for (const [t, token] of vocab.entries()) {
    if (token.type !== TOK_BYTE) continue;
    // The normalized residual carries about 8/|e| ~ 1.7 on the bias channel.
    row(out, t)[BIAS_DIM] = BYTE_TOKEN_LOGIT / 1.7;
  }
  for (const [after, next, strength] of rules) {
    // After RMS norm the residual is e * sqrt(n)/|e|; adding k * e/(|e| sqrt(n)) to a row gives that row logit ~k.
    const a = row(embd, id(after));
    const norm = Math.hypot(...a);
    const target = row(out, id(next));
    for (let i = 0; i < N_EMBD; i++) {
      if (i !== BIAS_DIM) target[i] += (RULE_LOGIT * strength * a[i]) / norm / Math.sqrt(N_EMBD);
    }
  }
}

/** The whole GGUF file as bytes. */
export function buildTinyGguf({ seed = 1, mode = 'babble' } = {}) {
  if (!Number.isInteger(seed)) throw new Error(`seed must be a whole number, got ${seed}`);
  const vocab = tinyVocab();
  const random = prng(seed);
  const tensors = tensorShapes(vocab.length).map(([name, dims]) => ({
    name,
    dims,
    data: tensorData(name, dims, random),
  }));
  if (mode === 'tool-call') applyRules(tensors, vocab, CALL_LS_RULES);
  else if (mode !== 'babble') throw new Error(`unknown mode ${mode} (babble or tool-call)`);

  const kv = [
    ['general.architecture', GGUF.STRING, 'llama'],
    ['general.name', GGUF.STRING, `agent-bench tiny llama (${mode})`],
    ['general.alignment', GGUF.UINT32, ALIGNMENT],
    ['general.file_type', GGUF.UINT32, 0], // ALL_F32
    ['llama.context_length', GGUF.UINT32, N_CTX],
    ['llama.embedding_length', GGUF.UINT32, N_EMBD],
    ['llama.block_count', GGUF.UINT32, N_LAYER],
    ['llama.feed_forward_length', GGUF.UINT32, N_FF],
    ['llama.attention.head_count', GGUF.UINT32, N_HEAD],
    ['llama.attention.head_count_kv', GGUF.UINT32, N_HEAD],
    ['llama.rope.dimension_count', GGUF.UINT32, N_EMBD / N_HEAD],
    ['llama.rope.freq_base', GGUF.FLOAT32, 10000],
    ['llama.attention.layer_norm_rms_epsilon', GGUF.FLOAT32, 1e-5],
    ['llama.vocab_size', GGUF.UINT32, vocab.length],
    ['tokenizer.ggml.model', GGUF.STRING, 'llama'],
    ['tokenizer.ggml.tokens', GGUF.ARRAY, { type: GGUF.STRING, items: vocab.map((t) => t.text) }],
    ['tokenizer.ggml.scores', GGUF.ARRAY, { type: GGUF.FLOAT32, items: vocab.map((t) => t.score) }],
    ['tokenizer.ggml.token_type', GGUF.ARRAY, { type: GGUF.INT32, items: vocab.map((t) => t.type) }],
    ['tokenizer.ggml.unknown_token_id', GGUF.UINT32, 0],
    ['tokenizer.ggml.bos_token_id', GGUF.UINT32, 1],
    ['tokenizer.ggml.eos_token_id', GGUF.UINT32, 4], // <|im_end|>: ends a ChatML turn
    ['tokenizer.ggml.add_bos_token', GGUF.BOOL, true],
    ['tokenizer.ggml.add_eos_token', GGUF.BOOL, false],
    ['tokenizer.chat_template', GGUF.STRING, CHATML_TEMPLATE],
  ];

  return serializeGguf({ kv, tensors, alignment: ALIGNMENT });
}

/** Writes the model to `outPath` and returns its size in bytes. */
export function writeTinyGguf(outPath, options = {}) {
  const bytes = buildTinyGguf(options);
  writeFileSync(outPath, bytes);
  return bytes.length;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { seed: { type: 'string', default: '1' }, mode: { type: 'string', default: 'babble' } },
  });
  const out = resolve(positionals[0] ?? 'tiny.gguf');
  try {
    const size = writeTinyGguf(out, { seed: Number(values.seed), mode: values.mode });
    console.log(`wrote ${out} (${Math.round(size / 1024)} KiB, ${values.mode})`);
  } catch (err) {
    console.error(`make-tiny-gguf: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 2;
  }
}
