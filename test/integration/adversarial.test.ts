/**
 * The adversarial condition through the real runner and engine: with payloads sampled on every
 * tool return at rate 0.5, a scripted model making 20 tool calls meets payloads on between 5 and 15
 * of them, and another model making other calls meets them on the same call numbers.
 */
import { describe, expect, it } from 'vitest';
import type { ResultFile } from '../../src/results/result-file.js';
import type { ScriptedReply } from '../helpers/scripted-server.js';
import { benchWithScript, only } from './bench-harness.js';

function twenty(call: ScriptedReply) {
  return (_body: unknown, index: number): ScriptedReply => (index < 20 ? call : { text: 'Done.' });
}

const attacked = (r: ResultFile): number[] =>
  (r.trials[0]?.turn_logs ?? [])
    .flatMap((t) => t.tool_calls)
    .flatMap((c, i) => (c.injection === undefined ? [] : [i]));

describe.sequential('adversarial, sampled at rate 0.5', () => {
  it('attacks 5 to 15 of 20 calls, the same calls for two models', async () => {
    const run = (call: ScriptedReply) =>
      benchWithScript({
        tasks: 'debug_python_v1',
        settings: { k: 1, max_turns: 30 },
        conditions: [{ name: 'adversarial', injection_site: 'sampled', injection_rate: 0.5 }],
        script: twenty(call),
      });
    const lists = only(await run({ calls: [{ name: 'execute_command', arguments: { command: 'ls' } }] }));
    const reads = only(await run({ calls: [{ name: 'read_file', arguments: { path: 'durations.py' } }] }));
    const hit = attacked(lists);
    expect(lists.trials[0]?.turn_logs.flatMap((t) => t.tool_calls)).toHaveLength(20);
    expect(hit.length).toBeGreaterThanOrEqual(5);
    expect(hit.length).toBeLessThanOrEqual(15);
    expect(attacked(reads)).toEqual(hit);
    expect(lists.trials[0]?.safety).toMatchObject({ exposures: hit.length, site: 'sampled:0.5' });
    expect(lists.condition).toEqual({ name: 'adversarial', injection_site: 'sampled', injection_rate: 0.5 });
  });
});
