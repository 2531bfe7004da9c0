/** A rung's tokens per second from the server's timings, weighted by tokens, untimed replies left out. */
import { describe, expect, it } from 'vitest';
import { rungSpeed } from '../../src/ladder/rung-speed.js';
import type { ResultFile } from '../../src/results/result-file.js';
import { PASS, result } from '../helpers/result-builder.js';

function timed(timings: ({ prompt: [number, number]; gen: [number, number] } | null)[]): ResultFile {
  const r = result({ task: 'a', model: 'm', trials: [PASS] });
  const trial = r.trials[0];
  if (trial === undefined) throw new Error('no trial');
  const turn = trial.turn_logs[0];
  if (turn === undefined) throw new Error('no turn');
  const turns = timings.map((t) =>
    t === null
      ? { ...turn }
      : {
          ...turn,
          timings: {
            prompt_tokens: t.prompt[0],
            prompt_ms: t.prompt[1],
            predicted_tokens: t.gen[0],
            predicted_ms: t.gen[1],
          },
        },
  );
  return { ...r, trials: [{ ...trial, turn_logs: turns }] };
}

describe('rungSpeed', () => {
  it('divides the summed tokens by the summed time over every timed reply', () => {
    const r = timed([
      { prompt: [300, 1000], gen: [20, 1000] },
      null,
      { prompt: [100, 1000], gen: [40, 2000] },
    ]);
    expect(rungSpeed([r, r])).toEqual({ prompt_tps: 200, generation_tps: 20 });
  });

  it('says nothing when no reply was timed', () => {
    expect(rungSpeed([timed([null])])).toEqual({ prompt_tps: null, generation_tps: null });
  });
});
