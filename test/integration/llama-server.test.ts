/**
 * agent-bench against a real llama-server (built by scripts/provision-llama.sh) serving the tiny
 * Qwen2.5-style models of scripts/make-qwen-gguf.mjs: what `models` reads from /v1/models and /props,
 * and whole trials through the real tokenizer, chat template and tool-call parser. The models answer
 * every turn with one call, execute_command {"command": "ls"} (they are bigram models, see the
 * generator), so a trial runs to its turn limit and fails as the model's failure, never as an error.
 * Skipped, saying why, when the build or the models are absent.
 */
import { mkdtemp, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DiscoveredModel, ServerDetails } from '../../src/discovery/types.js';
import type { ResultFile } from '../../src/results/result-file.js';
import { readResultFiles } from '../../src/results/store.js';
import { ensureImage } from '../../src/sandbox/index.js';
import { agentBench } from '../helpers/llama-cli.js';
import { findLlamaKit, type LlamaKit, skipWithoutLlama } from '../helpers/llama-kit.js';
import { BASE_FLAGS, type LlamaServer, startLlamaServer } from '../helpers/llama-process.js';

const kit = await findLlamaKit();
const skip = skipWithoutLlama(kit, 'models, tool calls');

/** `agent-bench run` of debug_python_v1 against `server`, with results in a fresh folder. */
async function runTrial(server: LlamaServer, extra: string[] = []) {
  const resultsDir = await mkdtemp(join(tmpdir(), 'agent-bench-llama-results-'));
  const run = await agentBench([
    'run',
    '--base-url',
    server.baseUrl,
    '--tasks',
    'debug_python_v1',
    '--max-turns',
    '2',
    '--retries',
    '0',
    '--results-dir',
    resultsDir,
    ...extra,
  ]);
  const files = (await readResultFiles(resultsDir)).results.map((f) => f.result);
  return { run, files };
}

function only(files: ResultFile[]): ResultFile {
  expect(files).toHaveLength(1);
  const [file] = files;
  if (file === undefined) throw new Error('no results file');
  return file;
}

/** What a real llama-server built from `kit` says about itself, as a result records it. */
function expectRealServer(file: ResultFile, k: LlamaKit, contextLength: number): void {
  expect(file.environment.server).toEqual({
    kind: 'llama-server',
    version: `b1-${k.commit.slice(0, 7)}`,
    context_length: contextLength,
    parallel_slots: 1,
    tool_support: true,
  });
}

describe.skipIf(skip)('a real llama-server', () => {
  const k = kit as LlamaKit;

  beforeAll(async () => {
    await ensureImage();
  });

  describe.sequential('with its tool-call parser (--jinja, the default)', () => {
    let server: LlamaServer;
    beforeAll(async () => {
      server = await startLlamaServer(k, k.models.Q4_K_M, [...BASE_FLAGS, '-c', '4096', '-np', '1']);
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('`models` shows what /v1/models and /props say: size, quantization, context, tools, version, slots', async () => {
      const two = await startLlamaServer(k, k.models.Q6_K, [...BASE_FLAGS, '-c', '8192', '-np', '2']);
      try {
        const json = await agentBench(['models', '--base-url', two.baseUrl, '--json']);
        expect(json.code).toBe(0);
        const sections = JSON.parse(json.stdout) as {
          source: string;
          server: ServerDetails | null;
          models: DiscoveredModel[];
        }[];
        expect(sections).toHaveLength(1);
        const [section] = sections;
        expect(section?.source).toBe(`llama-server at ${two.baseUrl}`);
        expect(section?.server).toMatchObject({
          kind: 'llama-server',
          version: `b1-${k.commit.slice(0, 7)}`,
          // 8192 split over 2 slots: what one request gets.
          contextLength: 4096,
          trainedContextLength: 32_768,
          parallelSlots: 2,
          toolSupport: true,
        });
        const [model] = section?.models ?? [];
        // The quantization is the server's answer (meta.ftype), not read from the file or the name.
        expect(model).toMatchObject({
          kind: 'llama-server',
          parameters: 0.079365376,
          quantization: 'Q6_K',
          weightSource: 'server',
          contextLength: 32_768,
          toolSupport: true,
          sources: { parameters: 'server', quantization: 'server', contextLength: 'server' },
        });
        expect(basename(model?.name ?? '')).toBe(basename(k.models.Q6_K));
        // The tensors' bytes: a little less than the file, which also holds the header and tokenizer.
        const fileBytes = (await stat(k.models.Q6_K)).size;
        expect(model?.weightBytes).toBeGreaterThan(fileBytes * 0.8);
        expect(model?.weightBytes).toBeLessThan(fileBytes);

        const table = await agentBench(['models', '--base-url', two.baseUrl]);
        expect(table.code).toBe(0);
        expect(table.stdout).toMatch(
          /tiny-qwen2\.5-79M-Q6_K\.gguf\s+79M\s+Q6_K\s+\d+ MiB\s+32768\s+yes\s+p:server q:server w:server c:server/,
        );
        expect(table.stdout).toContain(
          `server: version b1-${k.commit.slice(0, 7)} · 2 slots · context 4096 per request`,
        );
      } finally {
        await two.stop();
      }
    });

    it('a --model the server does not list is refused before any trial: exit 3 with the list', async () => {
      const resultsDir = await mkdtemp(join(tmpdir(), 'agent-bench-llama-results-'));
      const run = await agentBench([
        'run',
        '--base-url',
        server.baseUrl,
        '--model',
        'qwen2.5-7b-instruct',
        '--tasks',
        'debug_python_v1',
        '--results-dir',
        resultsDir,
      ]);
      expect(run.code).toBe(3);
      expect(run.stderr).toContain('does not list the model "qwen2.5-7b-instruct"');
      expect(run.stderr).toContain(k.models.Q4_K_M);
      expect((await readResultFiles(resultsDir)).results).toHaveLength(0);
    });

    it('native tool calls end to end: parsed by the server, run in the sandbox, replayed through its template', async () => {
      const { run, files } = await runTrial(server);
      expect(run.code).toBe(0);
      const file = only(files);
      expectRealServer(file, k, 4096);
      const trial = file.trials[0];
      expect(trial).toMatchObject({
        status: 'failed',
        failure_reason: 'ran out of turns (2)',
        turns: 2,
        native_tool_calls: 2,
        text_tool_calls: 0,
        malformed_replies: 0,
      });
      expect(trial?.error).toBeUndefined();
      for (const turn of trial?.turn_logs ?? []) {
        expect(turn.finish_reason).toBe('tool_calls');
        expect(turn.tool_calls.map((c) => [c.name, c.arguments, c.source])).toEqual([
          ['execute_command', { command: 'ls' }, 'native'],
        ]);
        // The sandbox ran it: the task's workspace.
        expect(turn.tool_calls[0]?.stdout).toBe('durations.py\ntest_durations.py\n');
      }
      // The second request carried the first call and its output, rendered by the real template.
      const prompts = trial?.turn_logs.map((t) => t.usage?.prompt_tokens ?? 0) ?? [];
      expect(prompts[0]).toBeGreaterThan(200);
      expect(prompts[1]).toBeGreaterThan(prompts[0] ?? 0);
    });

    it('a call cut by --max-tokens is the model’s bad call, refused and said so, not an error', async () => {
      const { run, files } = await runTrial(server, ['--max-tokens', '12']);
      expect(run.code).toBe(0);
      const trial = only(files).trials[0];
      expect(trial).toMatchObject({ status: 'failed', invalid_tool_call_count: 2, malformed_replies: 0 });
      expect(trial?.error).toBeUndefined();
      for (const turn of trial?.turn_logs ?? []) {
        expect(turn.finish_reason).toBe('length');
        expect(turn.request_error).toBeUndefined();
        // What the server parsed out of the cut output, kept as it came; the call never ran.
        expect(turn.tool_calls.map((c) => [c.name, c.raw_arguments, c.invalid, c.exit_code])).toEqual([
          ['execute_command', '{"command', 'bad_arguments', null],
        ]);
      }
    });
  });

  describe.sequential('without its tool-call parser (--skip-chat-parsing)', () => {
    let server: LlamaServer;
    beforeAll(async () => {
      server = await startLlamaServer(k, k.models.Q4_K_M, [
        ...BASE_FLAGS,
        '-c',
        '4096',
        '-np',
        '1',
        '--skip-chat-parsing',
      ]);
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('text tool calls end to end: the harness parses the <tool_call> the server passes through', async () => {
      const { run, files } = await runTrial(server);
      expect(run.code).toBe(0);
      const file = only(files);
      expectRealServer(file, k, 4096);
      const trial = file.trials[0];
      expect(trial).toMatchObject({
        status: 'failed',
        failure_reason: 'ran out of turns (2)',
        native_tool_calls: 0,
        text_tool_calls: 2,
        malformed_replies: 0,
      });
      for (const turn of trial?.turn_logs ?? []) {
        expect(turn.finish_reason).toBe('stop');
        // The call is cut out of the text; what is left is what the model said besides it: nothing.
        expect(turn.assistant_text).toBe('');
        expect(turn.tool_calls.map((c) => [c.name, c.arguments, c.source, c.stdout])).toEqual([
          ['execute_command', { command: 'ls' }, 'text', 'durations.py\ntest_durations.py\n'],
        ]);
      }
    });
  });
});
