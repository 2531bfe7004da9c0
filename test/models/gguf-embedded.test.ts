/**
 * The embedded backend against a real llama.cpp: a tiny random-weight GGUF is generated, loaded and
 * asked for replies. It babbles; these tests check the plumbing, not the words.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTinyGguf, writeTinyGguf } from '../../scripts/make-tiny-gguf.mjs';
import { TOOL_SPECS } from '../../src/agent/tools/registry.js';
import {
  createEmbeddedModel,
  type EmbeddedModel,
  type EmbeddedModelOptions,
} from '../../src/models/gguf-embedded.js';
import { type ChatMessage, ModelRequestError } from '../../src/models/types.js';
import { InternalError, UsageError } from '../../src/util/errors.js';

let dir: string;
let modelPath: string;
let model: EmbeddedModel;

// One thread: on a small shared CPU, llama.cpp's spinning worker threads make a tiny model 10-300x slower.
const load = (overrides: Partial<EmbeddedModelOptions> = {}): Promise<EmbeddedModel> =>
  createEmbeddedModel({
    modelPath,
    threads: 1,
    gpu: false,
    sampling: { temperature: 0.8, seed: 7, maxTokens: 48 },
    ...overrides,
  });

const conversation: ChatMessage[] = [
  { role: 'system', content: 'You are a coding agent. Use the tools.' },
  { role: 'user', content: 'The tests in /workspace fail. Fix the bug.' },
];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gguf-embedded-'));
  modelPath = join(dir, 'tiny.gguf');
  writeTinyGguf(modelPath);
  model = await load();
});

afterAll(async () => {
  await model?.dispose();
  await rm(dir, { recursive: true, force: true });
});

describe('the tiny GGUF', () => {
  it('is small and the same bytes for the same seed', () => {
    const a = buildTinyGguf({ seed: 3 });
    expect(a.subarray(0, 4).toString('latin1')).toBe('GGUF');
    expect(a.length).toBeLessThan(1024 * 1024);
    expect(buildTinyGguf({ seed: 3 }).equals(a)).toBe(true);
    expect(buildTinyGguf({ seed: 4 }).equals(a)).toBe(false);
  });
});

describe('createEmbeddedModel', () => {
  it('loads the model and describes it', () => {
    expect(model.name).toBe('gguf:tiny.gguf');
    expect(model.info).toMatchObject({
      architecture: 'llama',
      chatWrapper: 'ChatML',
      gpu: false,
      threads: 1,
    });
    expect(model.info.contextSize).toBeGreaterThanOrEqual(2048);
    expect(model.info.loadMs).toBeGreaterThan(0);
  });

  it('replies with token counts, latency and well-formed tool calls', async () => {
    const reply = await model.complete(conversation, TOOL_SPECS);
    expect(reply.usage?.prompt_tokens).toBeGreaterThan(100); // the tool documentation alone is longer
    expect(reply.usage?.completion_tokens).toBeGreaterThan(0);
    expect(reply.usage?.completion_tokens).toBeLessThanOrEqual(48);
    expect(reply.latencyMs).toBeGreaterThan(0);
    expect(reply.retries).toEqual([]);
    expect(['stop', 'length', 'tool_calls']).toContain(reply.finishReason);
    expect(typeof reply.text).toBe('string');
    const ids = reply.toolCalls.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const call of reply.toolCalls) {
      expect(call.id).toMatch(/^call_\d+$/);
      expect(typeof call.rawArguments).toBe('string');
      expect(['native', 'text']).toContain(call.source);
    }
    expect(model.info.generationTokensPerSec).toBeGreaterThan(0);
    // llama-server's `timings` shape, so the ladder's speed columns read an in-process rung too.
    expect(reply.timings?.prompt_tokens).toBeGreaterThan(100);
    expect(reply.timings?.prompt_ms).toBeGreaterThan(0);
    expect(reply.timings?.predicted_tokens).toBe((reply.usage?.completion_tokens ?? 0) - 1);
    expect(reply.timings?.predicted_ms).toBeGreaterThan(0);
  });

  it('continues a response after a tool result', async () => {
    const reply = await model.complete(
      [
        ...conversation,
        {
          role: 'assistant',
          content: null,
          toolCalls: [{ id: 'call_a', name: 'execute_command', rawArguments: '{"command":"ls"}' }],
        },
        { role: 'tool', toolCallId: 'call_a', content: 'exit_code: 0\nstdout:\nmain.py\ntest_main.py' },
      ],
      TOOL_SPECS,
    );
    expect(reply.usage?.completion_tokens).toBeGreaterThan(0);
  });

  it('stops at maxTokens', async () => {
    const short = await load({ sampling: { temperature: 0, maxTokens: 4 } });
    try {
      const reply = await short.complete(conversation, TOOL_SPECS);
      expect(reply.usage?.completion_tokens).toBe(4);
      expect(reply.finishReason).toBe('length');
    } finally {
      await short.dispose();
    }
  });

  it('stops when the signal aborts, rejecting with its reason, and still works afterwards', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled by test');
    setTimeout(() => controller.abort(reason), 5);
    await expect(model.complete(conversation, TOOL_SPECS, controller.signal)).rejects.toBe(reason);
    await expect(model.complete(conversation, TOOL_SPECS, AbortSignal.abort(reason))).rejects.toBe(reason);
    const reply = await model.complete(conversation, TOOL_SPECS);
    expect(reply.usage?.completion_tokens).toBeGreaterThan(0);
  });

  it('frees everything on dispose, twice is fine, and a later complete() says why it fails', async () => {
    const before = countResources();
    const m = await load();
    // dispose() waits for the reply in progress instead of freeing the context under it.
    const inFlight = m.complete(conversation, []);
    const disposed = m.dispose();
    expect((await inFlight).usage?.completion_tokens).toBeGreaterThan(0);
    await disposed;
    await m.dispose();
    await expect(m.complete(conversation, [])).rejects.toThrow(InternalError);
    await expect(m.complete(conversation, [])).rejects.toThrow(/after dispose/);
    for (const [kind, n] of countResources()) expect(n, kind).toBeLessThanOrEqual(before.get(kind) ?? 0);
  });

  it('returns native function calls as tool calls with fresh ids, also after a tool result', async () => {
    const callerPath = join(dir, 'caller.gguf');
    writeTinyGguf(callerPath, { mode: 'tool-call' });
    const caller = await load({ modelPath: callerPath });
    try {
      const first = await caller.complete(conversation, TOOL_SPECS);
      expect(first.finishReason).toBe('tool_calls');
      expect(first.malformed).toBeNull();
      expect(first.toolCalls).toEqual([
        {
          id: 'call_1',
          name: 'execute_command',
          rawArguments: '{"command":"ls"}',
          arguments: { command: 'ls' },
          source: 'native',
        },
      ]);
      expect(first.usage?.completion_tokens).toBeGreaterThan(0);
      const second = await caller.complete(
        [
          ...conversation,
          {
            role: 'assistant',
            content: null,
            toolCalls: [{ id: 'call_1', name: 'execute_command', rawArguments: '{"command":"ls"}' }],
          },
          { role: 'tool', toolCallId: 'call_1', content: 'exit_code: 0\nstdout:\nmain.py' },
        ],
        TOOL_SPECS,
      );
      expect(second.toolCalls.map((c) => [c.id, c.name, c.source])).toEqual([
        ['call_2', 'execute_command', 'native'],
      ]);
    } finally {
      await caller.dispose();
    }
  });

  it('a conversation that outgrows the context is a context overflow with the numbers, not a reply', async () => {
    // node-llama-cpp would drop the oldest turns and answer anyway, as Ollama does.
    const small = await load({ contextSize: 2048 });
    try {
      const long: ChatMessage[] = [...conversation, { role: 'user', content: 'word '.repeat(4000) }];
      const err = await small.complete(long, TOOL_SPECS).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ModelRequestError);
      const failure = (err as ModelRequestError).failure;
      expect(failure).toMatchObject({ kind: 'context_overflow', contextSize: 2048 });
      expect(failure.kind === 'context_overflow' && (failure.promptTokens ?? 0) > 2048).toBe(true);
      expect((err as Error).message).toMatch(/context overflow/);
      // Old turns that node-llama-cpp could drop to make room: still an overflow, not a reply.
      const chatty: ChatMessage[] = [...conversation];
      for (let i = 0; i < 4; i++) {
        chatty.push({ role: 'assistant', content: `thinking ${'aloud '.repeat(500)}`, toolCalls: [] });
        chatty.push({ role: 'user', content: 'Go on.' });
      }
      const shifted = await small.complete(chatty, TOOL_SPECS).catch((e: unknown) => e);
      expect(shifted).toBeInstanceOf(ModelRequestError);
      expect((shifted as ModelRequestError).failure.kind).toBe('context_overflow');
      // What fits is answered as before.
      expect((await small.complete(conversation, TOOL_SPECS)).usage?.completion_tokens).toBeGreaterThan(0);
    } finally {
      await small.dispose();
    }
  });

  it('refuses a file that is not a GGUF model with a one-line UsageError', async () => {
    const notModel = join(dir, 'notes.gguf');
    await writeFile(notModel, 'just some text\n');
    const err = await load({ modelPath: notModel }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect(String((err as Error).message)).toMatch(/^\S.*not a GGUF model file[^\n]*$/);
  });

  it('refuses a truncated GGUF with a one-line UsageError', async () => {
    const truncated = join(dir, 'truncated.gguf');
    await writeFile(truncated, buildTinyGguf().subarray(0, 2000));
    const err = await load({ modelPath: truncated }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).not.toContain('\n');
  });
});

/** Open handles (pipes, timers, sockets...) by kind: what a leaked native resource would leave behind. */
function countResources(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return counts;
}
