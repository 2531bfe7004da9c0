/** An in-process rung's memory: this process's peak RSS, reset at the rung's start, or unknown. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { peakRssBytes } from '../../src/ladder/group-memory.js';
import { watchOwnPeak } from '../../src/ladder/own-memory.js';
import { runLadder } from '../../src/ladder/run-ladder.js';
import type { ResultFile } from '../../src/results/result-file.js';
import type { BenchOptions } from '../../src/run/run-bench.js';
import type { Task } from '../../src/tasks/types.js';
import { gguf, writeGguf } from '../helpers/gguf-writer.js';
import { PASS, result } from '../helpers/result-builder.js';
import { runSettings } from '../helpers/run-settings.js';

const MiB = 2 ** 20;

// A freed buffer leaves the resident set only once collected: the test collects it itself.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

describe('watchOwnPeak', () => {
  it('counts what the rung touched, and a smaller rung after a larger one reads smaller', () => {
    // The first "rung" touches 256 MiB, the second 32 MiB: without the reset both would read the first's peak.
    const first = watchOwnPeak();
    let big: Buffer | null = Buffer.alloc(256 * MiB, 1);
    const firstPeak = first.peakBytes() ?? 0;
    expect(big.length).toBe(256 * MiB);
    big = null;
    gc();
    const second = watchOwnPeak();
    const small = Buffer.alloc(32 * MiB, 1);
    const secondPeak = second.peakBytes() ?? 0;
    expect(small.length).toBe(32 * MiB);
    expect(firstPeak).toBeGreaterThan(256 * MiB);
    // Freed pages leave the resident set; the reset makes the second peak its own.
    expect(secondPeak).toBeLessThan(firstPeak);
    expect(peakRssBytes('self')).toBeGreaterThan(0);
  });

  it('is unknown, not the whole life’s peak, when the peak cannot be reset', () => {
    const watch = watchOwnPeak(() => {
      throw new Error('EACCES');
    });
    expect(watch.peakBytes()).toBeNull();
  });
});

describe('an in-process (gguf:) rung', () => {
  it('records its process peak and its speed from the replies, as a server rung does', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'own-memory-'));
    try {
      await writeGguf(join(dir, 'm-Q4_K_M.gguf'), { kv: [['general.architecture', gguf.str('llama')]] });
      let touched: Buffer | null = null;
      const runBench = async (o: BenchOptions): Promise<ResultFile[]> => {
        // What loading a model does to this process's resident set.
        touched = Buffer.alloc(64 * MiB, 1);
        const r = result({ task: 'a', model: o.model.model ?? '', trials: [PASS] });
        const [trial] = r.trials;
        const [turn] = trial?.turn_logs ?? [];
        if (turn !== undefined)
          turn.timings = { prompt_tokens: 300, prompt_ms: 1000, predicted_tokens: 20, predicted_ms: 2000 };
        return [r];
      };
      const outcome = await runLadder(
        {
          tasks: [{ id: 'a' }] as Task[],
          suite: 'a',
          source: { kind: 'gguf-dir', dir },
          settings: runSettings(),
          resultsDir: join(dir, 'results'),
          resume: false,
          exhaustive: false,
          request: { apiKeyEnv: 'K', sampling: { temperature: 0 }, requestTimeoutMs: 5000, retries: 0 },
          stdout: { write: () => {} },
          stderr: { write: () => true, isTTY: false },
          handleSignals: false,
        },
        { runBench, preflight: async () => {} },
      );
      expect(touched).not.toBeNull();
      const [rung] = outcome.rungs;
      expect(rung?.peakRssOf).toBe('process');
      expect(rung?.serverPeakRssBytes).toBeGreaterThan(64 * MiB);
      expect(outcome.verdict).toMatch(/, process peak \d/);
      const summary = JSON.parse(await readFile(outcome.summaryPath, 'utf8'));
      expect(summary.rungs[0]).toMatchObject({
        peak_rss_of: 'process',
        speed: { prompt_tps: 300, generation_tps: 10 },
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
