/** --parallel: what `auto` takes from the server, and what is said when the request cannot be followed. */
import { describe, expect, it } from 'vitest';
import type { EnvironmentServer } from '../../src/results/result-file.js';
import { chooseParallel } from '../../src/run/parallelism.js';

const server = (over: Partial<EnvironmentServer>): EnvironmentServer => ({
  kind: 'llama-server',
  version: 'b1',
  context_length: 8192,
  parallel_slots: null,
  tool_support: true,
  ...over,
});

describe('chooseParallel', () => {
  it("auto takes the server's slot count when it says it, and says so", () => {
    expect(chooseParallel('auto', server({ parallel_slots: 4 }))).toEqual({
      parallel: 4,
      note: "--parallel auto: 4 at a time (the server's slots)",
    });
  });

  it('auto is 1 when the server does not say, or there is no server, and says why', () => {
    expect(chooseParallel('auto', server({ kind: 'ollama' }))).toEqual({
      parallel: 1,
      note: '--parallel auto: 1 at a time (the server (ollama) does not say how many requests it serves at once)',
    });
    expect(chooseParallel('auto', null)).toEqual({
      parallel: 1,
      note: '--parallel auto: 1 at a time (there is no model server to ask)',
    });
  });

  it('a number is followed, with a warning past the slots the server has', () => {
    expect(chooseParallel(2, server({ parallel_slots: 2 }))).toEqual({ parallel: 2, note: null });
    expect(chooseParallel(3, null)).toEqual({ parallel: 3, note: null });
    const past = chooseParallel(4, server({ parallel_slots: 2 }));
    expect(past.parallel).toBe(4);
    expect(past.note).toMatch(
      /^warning: --parallel 4 but the server serves 2 request\(s\) at once: .*model time$/,
    );
  });

  it('the in-process model runs one trial at a time: its requests would only queue', () => {
    const embedded = server({ kind: 'embedded', parallel_slots: 1 });
    expect(chooseParallel(1, embedded)).toEqual({ parallel: 1, note: null });
    expect(chooseParallel(3, embedded)).toEqual({
      parallel: 1,
      note: '--parallel 3: 1 trial at a time (the in-process model answers one request at a time)',
    });
    expect(chooseParallel('auto', embedded).parallel).toBe(1);
  });
});
