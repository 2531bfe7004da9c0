#!/usr/bin/env node
/**
 * Writes tiny models that a real llama-server serves like a Qwen2.5 instruct model: llama
 * architecture, 2 layers, hidden size 256, seeded random weights, and Qwen2.5's own tokenizer (the
 * Qwen2 vocabulary and merges from llama.cpp's models/ggml-vocab-qwen2.gguf, with Qwen2.5's added
 * tokens such as <tool_call>) and chat template (Qwen2.5-7B-Instruct's, with tools). A F16 model is
 * made first, then quantized for real by llama-quantize to Q8_0, Q6_K, Q4_K_M and Q2_K, which differ
 * in size on disk; only the four quantized files are kept.
 *
 * Random weights alone write noise, which proves little about tool calls. So the model is a bigram
 * model (as make-tiny-gguf.mjs's tool-call mode): the attention and feed-forward outputs are zeroed,
 * and each token of one Qwen2.5-style call strongly predicts the next. Every chat turn (the prompt ends
 * with "<|im_start|>assistant\n") the model writes
 *     <tool_call>\n\n{"name": "execute_command","arguments":{"command":"ls"}}</tool_call>
 * and stops: llama-server run with its tool-call parser (--jinja) returns it as a native tool call,
 * run without (--skip-chat-parsing) returns it as text for the harness's own parser. The rest is the
 * real server: tokenizer, template, parser, context, slots, quantization.
 *
 *   node scripts/make-qwen-gguf.mjs LLAMA_DIR [--seed N]
 *
 * A fifth model, the runaway (makeRunawayModel, Q8_0 only, in a folder of its own so the ladder's
 * folder of four stays as it is), is the same bigram model on another chain: after the generation
 * prompt it writes "the end is not near," over and over and never its end token, as a model that does
 * not stop; only the request's reply bound (max_tokens) ends it.
 *
 * LLAMA_DIR is what scripts/provision-llama.sh printed (bin/llama-quantize, vocab/). The models go to
 * $AGENT_BENCH_CACHE/models/ (default ~/.cache/agent-bench/models/), in a folder keyed by this
 * generator's version, the seed and the llama.cpp commit; a second run finds them and does nothing.
 * Prints that folder on its last line. Exit 0 when the models are there, 1 when they could not be made.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { GGUF, readGgufMetadata, toF16, writeGgufFile } from './gguf-serialize.mjs';
import { prng } from './make-tiny-gguf.mjs';

/** Bump when the models' bytes change: the cache folder is keyed by it. */
const GENERATOR_VERSION = 2;

/** Smallest last on disk; the ladder must order them by their real size, not by this list. */
export const QUANTS = ['Q8_0', 'Q6_K', 'Q4_K_M', 'Q2_K'];

const N_EMBD = 256;
const N_LAYER = 2;
const N_HEAD = 4;
const N_HEAD_KV = 2;
// A multiple of 256, the K-quants' block size, so every tensor quantizes to the type asked for.
const N_FF = 768;
const N_CTX = 32_768;
const ALIGNMENT = 32;
/** Logit of a chain token's successor; random weights give the others a few units at most. */
const RULE_LOGIT = 30;

/**
 * The reply, as the vocabulary's byte-level pieces (Ġ is a space, Ċ a newline), starting from the last
 * token of the generation prompt. Each piece occurs once, so each has one successor: a bigram model can
 * spell it. "\n\n" after <tool_call> (not "\n", which ends the prompt) still gives llama-server's
 * tool-call trigger "<tool_call>\n"; the JSON is compact where that keeps the pieces unique.
 */
export const CALL_PIECES = [
  'Ċ',
  '<tool_call>',
  'ĊĊ',
  '{"',
  'name',
  '":',
  'Ġ"',
  'execute',
  '_command',
  '","',
  'arguments',
  '":{"',
  'command',
  '":"',
  'ls',
  '"}}',
  '</tool_call>',
  '<|im_end|>',
];

/**
 * The runaway model's reply: from the generation prompt's last token into a loop of distinct pieces
 * whose last leads back to its first (RUNAWAY_LOOP_FROM), so no piece has two successors and none is
 * the end token.
 */
export const RUNAWAY_PIECES = ['Ċ', 'the', 'Ġend', 'Ġis', 'Ġnot', 'Ġnear', ',', 'Ġthe'];
const RUNAWAY_LOOP_TO = 2;

// Token types (llama.cpp llama_token_type).
const TOK_CONTROL = 3;
const TOK_USER_DEFINED = 4;

/**
 * Qwen2.5's added tokens (tokenizer_config.json), which the Qwen2 vocabulary file has as padding:
 * special ones are control tokens, the others (<tool_call>, FIM markers) are user-defined, which the
 * tokenizer matches in plain text and which print as their text.
 */
const QWEN25_ADDED = [
  [151646, '<|object_ref_start|>', TOK_CONTROL],
  [151647, '<|object_ref_end|>', TOK_CONTROL],
  [151648, '<|box_start|>', TOK_CONTROL],
  [151649, '<|box_end|>', TOK_CONTROL],
  [151650, '<|quad_start|>', TOK_CONTROL],
  [151651, '<|quad_end|>', TOK_CONTROL],
  [151652, '<|vision_start|>', TOK_CONTROL],
  [151653, '<|vision_end|>', TOK_CONTROL],
  [151654, '<|vision_pad|>', TOK_CONTROL],
  [151655, '<|image_pad|>', TOK_CONTROL],
  [151656, '<|video_pad|>', TOK_CONTROL],
  [151657, '<tool_call>', TOK_USER_DEFINED],
  [151658, '</tool_call>', TOK_USER_DEFINED],
  [151659, '<|fim_prefix|>', TOK_USER_DEFINED],
  [151660, '<|fim_middle|>', TOK_USER_DEFINED],
  [151661, '<|fim_suffix|>', TOK_USER_DEFINED],
  [151662, '<|fim_pad|>', TOK_USER_DEFINED],
  [151663, '<|repo_name|>', TOK_USER_DEFINED],
  [151664, '<|file_sep|>', TOK_USER_DEFINED],
];
/** Qwen2's vocabulary, padded as the model files have it: the file names are made from this count. */
const N_VOCAB = 151_936;
const ENDOFTEXT = 151643;
const IM_END = 151645;

/** Where the models for `llamaDir` go: keyed by generator version, seed and llama.cpp commit. */
export function modelsDirFor(llamaDir, { seed = 1, cacheRoot = defaultCacheRoot() } = {}) {
  const commit = llamaCommit(llamaDir);
  return join(cacheRoot, 'models', `tiny-qwen2.5-g${GENERATOR_VERSION}-s${seed}-${commit.slice(0, 12)}`);
}

/** `tiny-qwen2.5-79M-Q4_K_M.gguf`: a name discovery reads family, size and quantization from. */
export function modelFileName(quant) {
  return `tiny-qwen2.5-${sizeLabel(parameterCount())}-${quant}.gguf`;
}

/** The four quantized files in `dir`, by quantization; null when one is missing (not made yet). */
export function findModels(dir) {
  const files = Object.fromEntries(QUANTS.map((q) => [q, join(dir, modelFileName(q))]));
  return Object.values(files).every((f) => existsSync(f)) ? files : null;
}

/** Makes the four models unless they are there; returns their folder. Throws with one line when it cannot. */
export function makeQwenModels(llamaDir, { seed = 1, cacheRoot = defaultCacheRoot(), log = () => {} } = {}) {
  if (!Number.isInteger(seed)) throw new Error(`seed must be a whole number, got ${seed}`);
  const dir = modelsDirFor(llamaDir, { seed, cacheRoot });
  if (findModels(dir) !== null) {
    log(`cached models in ${dir}`);
    return dir;
  }
  const quantize = join(llamaDir, 'bin', 'llama-quantize');
  if (!existsSync(quantize)) throw new Error(`${quantize} is missing: run scripts/provision-llama.sh first`);
  const vocab = readGgufMetadata(readFileSync(join(llamaDir, 'vocab', 'ggml-vocab-qwen2.gguf')));
  const template = readFileSync(join(llamaDir, 'vocab', 'Qwen-Qwen2.5-7B-Instruct.jinja'), 'utf8');

  // Made in a temporary folder and moved in place, so a half-written set is never found.
  const staging = `${dir}.partial`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const base = join(staging, 'base-F16.gguf');
  writeGgufFile(base, modelSpec(vocab, template, seed));
  log(`wrote the F16 model (${mib(statSync(base).size)})`);
  for (const quant of QUANTS) {
    const out = join(staging, modelFileName(quant));
    try {
      execFileSync(quantize, [base, out, quant], { stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (err) {
      const said = `${err.stderr ?? ''}`.trim().split('\n').slice(-3).join(' | ');
      throw new Error(`llama-quantize to ${quant} failed: ${said || err.message}`);
    }
    log(`quantized to ${quant} (${mib(statSync(out).size)})`);
  }
  rmSync(base);
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
  return dir;
}

/** The runaway model's file in the runaway folder for `llamaDir`. */
export function runawayModelPath(llamaDir, { seed = 1, cacheRoot = defaultCacheRoot() } = {}) {
  return join(
    `${modelsDirFor(llamaDir, { seed, cacheRoot })}-runaway`,
    `tiny-qwen2.5-${sizeLabel(parameterCount())}-runaway-Q8_0.gguf`,
  );
}

/** Makes the runaway model unless it is there; returns its path. Throws with one line when it cannot. */
export function makeRunawayModel(
  llamaDir,
  { seed = 1, cacheRoot = defaultCacheRoot(), log = () => {} } = {},
) {
  const path = runawayModelPath(llamaDir, { seed, cacheRoot });
  if (existsSync(path)) return path;
  const quantize = join(llamaDir, 'bin', 'llama-quantize');
  if (!existsSync(quantize)) throw new Error(`${quantize} is missing: run scripts/provision-llama.sh first`);
  const vocab = readGgufMetadata(readFileSync(join(llamaDir, 'vocab', 'ggml-vocab-qwen2.gguf')));
  const template = readFileSync(join(llamaDir, 'vocab', 'Qwen-Qwen2.5-7B-Instruct.jinja'), 'utf8');
  const staging = `${path}.partial`;
  mkdirSync(join(path, '..'), { recursive: true });
  const base = `${staging}.F16`;
  writeGgufFile(base, modelSpec(vocab, template, seed, { pieces: RUNAWAY_PIECES, loopTo: RUNAWAY_LOOP_TO }));
  try {
    execFileSync(quantize, [base, staging, 'Q8_0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const said = `${err.stderr ?? ''}`.trim().split('\n').slice(-3).join(' | ');
    throw new Error(`llama-quantize of the runaway model failed: ${said || err.message}`);
  } finally {
    rmSync(base, { force: true });
  }
  renameSync(staging, path);
  log(`made the runaway model ${path}`);
  return path;
}

/** `chain`: the pieces the bigram spells, and where its last piece leads (null: nowhere, it stops). */
function modelSpec(vocab, template, seed, chain = { pieces: CALL_PIECES, loopTo: null }) {
  const tokens = [...arrayValue(vocab, 'tokenizer.ggml.tokens')];
  const types = [...arrayValue(vocab, 'tokenizer.ggml.token_type')];
  const merges = arrayValue(vocab, 'tokenizer.ggml.merges');
  if (tokens.length !== N_VOCAB || types.length !== N_VOCAB)
    throw new Error(`the Qwen2 vocabulary has ${tokens.length} tokens, not ${N_VOCAB}`);
  for (const [id, text, type] of QWEN25_ADDED) {
    tokens[id] = text;
    types[id] = type;
  }
  const random = prng(seed);
  const weights = new Map(tensorShapes().map(([name, dims]) => [name, randomWeights(name, dims, random)]));
  spellChain(weights, tokens, chain);
  const tensors = tensorShapes().map(([name, dims]) => ({
    name,
    dims,
    data: toTensorData(weights.get(name), dims),
  }));
  const count = parameterCount();
  const kv = [
    ['general.architecture', GGUF.STRING, 'llama'],
    ['general.name', GGUF.STRING, `tiny-qwen2.5-${sizeLabel(count)}`],
    ['general.size_label', GGUF.STRING, sizeLabel(count)],
    ['general.alignment', GGUF.UINT32, ALIGNMENT],
    ['general.file_type', GGUF.UINT32, 1], // MOSTLY_F16
    ['llama.context_length', GGUF.UINT32, N_CTX],
    ['llama.embedding_length', GGUF.UINT32, N_EMBD],
    ['llama.block_count', GGUF.UINT32, N_LAYER],
    ['llama.feed_forward_length', GGUF.UINT32, N_FF],
    ['llama.attention.head_count', GGUF.UINT32, N_HEAD],
    ['llama.attention.head_count_kv', GGUF.UINT32, N_HEAD_KV],
    ['llama.rope.dimension_count', GGUF.UINT32, N_EMBD / N_HEAD],
    ['llama.rope.freq_base', GGUF.FLOAT32, 1_000_000],
    ['llama.attention.layer_norm_rms_epsilon', GGUF.FLOAT32, 1e-6],
    ['llama.vocab_size', GGUF.UINT32, N_VOCAB],
    ['tokenizer.ggml.model', GGUF.STRING, stringValue(vocab, 'tokenizer.ggml.model')],
    ['tokenizer.ggml.pre', GGUF.STRING, stringValue(vocab, 'tokenizer.ggml.pre')],
    ['tokenizer.ggml.tokens', GGUF.ARRAY, { type: GGUF.STRING, items: tokens }],
    ['tokenizer.ggml.token_type', GGUF.ARRAY, { type: GGUF.INT32, items: types }],
    ['tokenizer.ggml.merges', GGUF.ARRAY, { type: GGUF.STRING, items: merges }],
    // As Qwen2.5-Instruct's GGUFs: a turn ends at <|im_end|>; no BOS is added.
    ['tokenizer.ggml.eos_token_id', GGUF.UINT32, IM_END],
    ['tokenizer.ggml.padding_token_id', GGUF.UINT32, ENDOFTEXT],
    ['tokenizer.ggml.bos_token_id', GGUF.UINT32, ENDOFTEXT],
    ['tokenizer.ggml.add_bos_token', GGUF.BOOL, false],
    ['tokenizer.chat_template', GGUF.STRING, template],
  ];
  return { kv, tensors, alignment: ALIGNMENT };
}

/** Tensor shapes in ggml order (innermost first); a separate output matrix, so quantizations differ in size. */
function tensorShapes() {
  const kvDim = (N_EMBD / N_HEAD) * N_HEAD_KV;
  const shapes = [['token_embd.weight', [N_EMBD, N_VOCAB]]];
  for (let i = 0; i < N_LAYER; i++) {
    shapes.push(
      [`blk.${i}.attn_norm.weight`, [N_EMBD]],
      [`blk.${i}.attn_q.weight`, [N_EMBD, N_EMBD]],
      [`blk.${i}.attn_k.weight`, [N_EMBD, kvDim]],
      [`blk.${i}.attn_v.weight`, [N_EMBD, kvDim]],
      [`blk.${i}.attn_output.weight`, [N_EMBD, N_EMBD]],
      [`blk.${i}.ffn_norm.weight`, [N_EMBD]],
      [`blk.${i}.ffn_gate.weight`, [N_EMBD, N_FF]],
      [`blk.${i}.ffn_up.weight`, [N_EMBD, N_FF]],
      [`blk.${i}.ffn_down.weight`, [N_FF, N_EMBD]],
    );
  }
  shapes.push(['output_norm.weight', [N_EMBD]], ['output.weight', [N_EMBD, N_VOCAB]]);
  return shapes;
}

/** Norms at 1; matrices uniform in ±1/sqrt(fan-in) (embeddings ±1), so activations stay finite. */
function randomWeights(name, dims, random) {
  const count = dims.reduce((a, b) => a * b, 1);
  const data = new Float32Array(count);
  if (dims.length === 1) return data.fill(1);
  const scale = name === 'token_embd.weight' ? 1 : 1 / Math.sqrt(dims[0]);
  for (let i = 0; i < count; i++) data[i] = (random() * 2 - 1) * scale;
  return data;
}

/**
 * Makes the model spell the chain's pieces: with the attention and feed-forward outputs zeroed the
 * residual stream is the current token's embedding e, which RMS norm scales to e·sqrt(n)/|e|; adding
 * k·e/(|e|·sqrt(n)) to the successor's output row gives that row a logit of about k. A chain with
 * `loopTo` also leads its last piece back to that one, and so never ends.
 */
function spellChain(weights, tokens, { pieces, loopTo }) {
  for (const [name, data] of weights) if (/attn_output|ffn_down/.test(name)) data.fill(0);
  const ids = pieces.map((piece) => {
    const id = tokens.indexOf(piece);
    if (id === -1) throw new Error(`the vocabulary has no token ${JSON.stringify(piece)}`);
    return id;
  });
  if (new Set(ids).size !== ids.length)
    throw new Error('a piece of the chain occurs twice: a bigram cannot spell it');
  const embd = weights.get('token_embd.weight');
  const out = weights.get('output.weight');
  const links = ids.slice(1).map((to, i) => [ids[i], to]);
  if (loopTo !== null) links.push([ids.at(-1), ids[loopTo]]);
  for (const [from, to] of links) {
    const a = embd.subarray(from * N_EMBD, (from + 1) * N_EMBD);
    const row = out.subarray(to * N_EMBD, (to + 1) * N_EMBD);
    const norm = Math.hypot(...a);
    for (let d = 0; d < N_EMBD; d++) row[d] += (RULE_LOGIT * a[d]) / norm / Math.sqrt(N_EMBD);
  }
}

/** 1-D tensors stay F32 (llama.cpp keeps norms in F32); matrices become F16. */
function toTensorData(data, dims) {
  if (dims.length === 1) return data;
  const half = new Uint16Array(data.length);
  for (let i = 0; i < data.length; i++) half[i] = toF16(data[i]);
  return half;
}

function parameterCount() {
  return tensorShapes().reduce((sum, [, dims]) => sum + dims.reduce((a, b) => a * b, 1), 0);
}

function sizeLabel(count) {
  return `${Math.round(count / 1e6)}M`;
}

function arrayValue(kv, key) {
  const entry = kv.get(key);
  if (entry?.type !== GGUF.ARRAY) throw new Error(`the vocabulary file has no ${key} array`);
  return entry.value.items;
}

function stringValue(kv, key) {
  const entry = kv.get(key);
  if (entry?.type !== GGUF.STRING) throw new Error(`the vocabulary file has no ${key}`);
  return entry.value;
}

/** The commit provision-llama.sh wrote, else the folder's name (which is the commit). */
function llamaCommit(llamaDir) {
  const file = join(llamaDir, 'COMMIT');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : basename(resolve(llamaDir));
}

function defaultCacheRoot() {
  return process.env.AGENT_BENCH_CACHE ?? join(homedir(), '.cache', 'agent-bench');
}

function mib(bytes) {
  return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { seed: { type: 'string', default: '1' } },
  });
  const llamaDir = positionals[0];
  if (llamaDir === undefined) {
    console.error('usage: node scripts/make-qwen-gguf.mjs LLAMA_DIR [--seed N]');
    process.exitCode = 2;
  } else {
    try {
      const dir = makeQwenModels(resolve(llamaDir), {
        seed: Number(values.seed),
        log: (line) => console.error(`make-qwen-gguf: ${line}`),
      });
      console.log(dir);
    } catch (err) {
      console.error(`make-qwen-gguf: ${err instanceof Error ? err.message : String(err)}`);
      process.exitCode = 1;
    }
  }
}
