/**
 * A trial's end reason is an enum in the results (schema 2.4): every value survives a write and a
 * read, nothing else is read, and a file an older agent-bench wrote gets it from what it stored.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseResultFile, readResultFile, writeResultFile } from '../../src/results/store.js';
import { END_REASONS } from '../../src/results/trial.js';
import { legacyEndReason } from '../../src/results/upgrade.js';
import { canonicalJson, sha256 } from '../../src/util/hash.js';
import { MISS, PASS, result } from '../helpers/result-builder.js';

const OLD_FILE = join(import.meta.dirname, 'old-files', 'debug_python_v1-schema-2.3.json');

function signed(value: object): string {
  const { result_hash: _, ...rest } = value as Record<string, unknown>;
  return JSON.stringify({ ...rest, result_hash: sha256(canonicalJson(rest)) });
}

describe('end reasons in the results', () => {
  it('writes and reads back every end reason', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'end-reason-'));
    try {
      const built = result({ task: 't', model: 'm', trials: END_REASONS.map(() => PASS) });
      const written = {
        ...built,
        trials: built.trials.map((t, i) => ({ ...t, end_reason: END_REASONS[i] ?? 'max_turns' })),
      };
      const path = await writeResultFile(dir, JSON.parse(signed(written)));
      const read = await readResultFile(path);
      expect(read.ok ? read.result.trials.map((t) => t.end_reason) : read.reason).toEqual([...END_REASONS]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses an end reason outside the enum, and a 2.4 file without one', () => {
    const built = result({ task: 't', model: 'm', trials: [PASS] });
    const [first] = built.trials;
    if (first === undefined) throw new Error('no trial');
    const unknown = parseResultFile(
      signed({ ...built, trials: [{ ...first, end_reason: 'max_turns: 30' }] }),
    );
    expect(unknown.ok ? '' : unknown.reason).toMatch(
      /^does not match the results schema \(trials\.0\.end_reason/,
    );
    const { end_reason: _, ...without } = first;
    const missing = parseResultFile(signed({ ...built, trials: [without] }));
    expect(missing.ok ? '' : missing.reason).toMatch(/trials\.0\.end_reason/);
  });

  it('reads a file of schema 2.3, its end reasons derived from what it stored', async () => {
    const text = await readFile(OLD_FILE, 'utf8');
    expect(JSON.parse(text)).toMatchObject({ schema_version: '2.3' });
    const read = await readResultFile(OLD_FILE);
    if (!read.ok) throw new Error(read.reason);
    expect(read.result.schema_version).toBe('2.3');
    expect(read.result.trials.map((t) => [t.failure_reason, t.end_reason])).toEqual([
      // Tampering hid how it ended, but it gave its final answer.
      ['tampering: modified test_main.py (not allowed)', 'final_answer'],
      ['flags not reached', 'final_answer'],
      ['max_turns_exhausted', 'max_turns'],
    ]);
  });

  it('derives an older end reason from its error, its dialogue, or its text', () => {
    const t = { status: 'failed', failure_reason: null, final_answer: 'ok' };
    expect(legacyEndReason(t)).toBe('final_answer');
    expect(legacyEndReason({ ...t, final_answer: null, failure_reason: 'tampering: x' })).toBe('max_turns');
    expect(legacyEndReason({ ...t, failure_reason: 'agent_timeout: 900 s of agent time used' })).toBe(
      'agent_timeout',
    );
    expect(legacyEndReason({ ...t, dialogue: { end: 'user_ended' } })).toBe('user_ended');
    expect(legacyEndReason({ ...t, dialogue: { end: 'max_turns' } })).toBe('max_turns');
    const error = { ...t, status: 'error', final_answer: null };
    expect(legacyEndReason({ ...error, error: { kind: 'harness' } })).toBe('harness_error');
    expect(legacyEndReason({ ...error, error: { kind: 'unreachable' } })).toBe('request_failed');
    // 2.0 and 2.1 had no `error`.
    expect(legacyEndReason({ ...error, failure_reason: 'server_error: 500' })).toBe('request_failed');
    expect(legacyEndReason({ ...error, failure_reason: 'harness_error: gone' })).toBe('harness_error');
  });

  it('leaves a current file as written', () => {
    const built = result({ task: 't', model: 'm', trials: [MISS] });
    const parsed = parseResultFile(JSON.stringify(built));
    expect(parsed.ok ? parsed.result : parsed.reason).toEqual(built);
  });
});
