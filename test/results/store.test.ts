import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseEventLine } from '../../src/results/event-line.js';
import { resultFileName } from '../../src/results/layout.js';
import {
  describeProblem,
  parseResultFile,
  readResultFiles,
  withHash,
  writeResultFile,
} from '../../src/results/store.js';
import { SCHEMA_VERSION } from '../../src/results/version.js';
import { canonicalJson, sha256 } from '../../src/util/hash.js';
import { PASS, result } from '../helpers/result-builder.js';

/** Re-signs an edited object, as a newer writer would have written it. */
function signed(value: Record<string, unknown>): string {
  const { result_hash: _, ...rest } = value;
  return JSON.stringify({ ...rest, result_hash: sha256(canonicalJson(rest)) });
}

describe('results store', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'results-store-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes the current schema version and reads the file back as written', async () => {
    const written = result({ task: 'debug_python_v1', model: 'qwen3:8b', trials: [PASS, PASS] });
    expect(written.schema_version).toBe(SCHEMA_VERSION);
    const path = await writeResultFile(dir, written);
    expect(path).toBe(join(dir, resultFileName('debug_python_v1', 'qwen3:8b', written.run_id)));
    const { results, problems } = await readResultFiles(dir);
    expect(problems).toEqual([]);
    expect(results).toEqual([{ path, result: written }]);
  });

  it('reports a hand-edited file instead of using it', async () => {
    const path = await writeResultFile(dir, result({ task: 't', model: 'm', trials: [PASS] }));
    const text = await readFile(path, 'utf8');
    await writeFile(path, text.replace('"pass_all_k": true', '"pass_all_k": false'));
    const { results, problems } = await readResultFiles(dir);
    expect(results).toEqual([]);
    expect(problems).toHaveLength(1);
    expect(describeProblem(problems[0] as never)).toBe(
      `skipped ${path}: content does not match its result_hash (edited by hand or corrupted)`,
    );
  });

  it('refuses a file written by a newer schema, saying to upgrade', () => {
    const newer = { ...result({ task: 't', model: 'm', trials: [PASS] }), schema_version: '3.0' };
    const parsed = parseResultFile(signed(newer));
    expect(parsed).toMatchObject({ ok: false, foreign: false });
    expect(parsed.ok ? '' : parsed.reason).toMatch(
      /newer agent-bench \(schema 3\.0; this one reads up to 2\.\d+\)/,
    );
    const minor = { ...newer, schema_version: `${SCHEMA_VERSION.split('.')[0]}.99` };
    expect(parseResultFile(signed(minor)).ok).toBe(false);
  });

  it('refuses versions it does not know and older ones it cannot read', () => {
    const base = result({ task: 't', model: 'm', trials: [PASS] });
    for (const version of ['1.4', 'two', '2']) {
      const parsed = parseResultFile(signed({ ...base, schema_version: version }));
      expect(parsed.ok, version).toBe(false);
    }
  });

  it('names the field when a correctly hashed file does not match the schema', () => {
    const base = result({ task: 't', model: 'm', trials: [PASS] });
    const broken = { ...base, trials: [{ ...base.trials[0], score: 'high' }] };
    const parsed = parseResultFile(signed(broken));
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.reason).toContain('trials.0.score');
  });

  it('skips foreign JSON (a ladder summary) silently and reports broken JSON', async () => {
    await writeFile(
      join(dir, 'ladder-1.json'),
      JSON.stringify({ schema: 'agent-bench/ladder@1', rungs: [] }),
    );
    await writeFile(join(dir, 't__m__2.json'), '{"schema_version": "2.0", "trials": [');
    const { results, problems } = await readResultFiles(dir);
    expect(results).toEqual([]);
    expect(problems.map((p) => p.path)).toEqual([join(dir, 't__m__2.json')]);
    expect(problems[0]?.reason).toMatch(/not valid JSON/);
  });

  it('skips a fifo named like a results file instead of blocking on it', async () => {
    expect(spawnSync('mkfifo', [join(dir, 'trap.json')]).status).toBe(0);
    await writeResultFile(dir, result({ task: 'debug_python_v1', model: 'm', trials: [PASS] }));
    const { results, problems } = await readResultFiles(dir);
    expect(results).toHaveLength(1);
    expect(problems).toEqual([{ path: join(dir, 'trap.json'), reason: 'not a regular file' }]);
  });

  it('reads a missing folder as empty', async () => {
    expect(await readResultFiles(join(dir, 'nope'))).toEqual({ results: [], problems: [] });
  });

  it('withHash always stamps the writer version', () => {
    const { schema_version: _, result_hash: __, ...rest } = result({ task: 't', model: 'm', trials: [] });
    expect(withHash(rest).schema_version).toBe(SCHEMA_VERSION);
  });
});

describe('events.jsonl lines', () => {
  const line = {
    ts: '2025-01-01T00:00:00.000Z',
    run_id: 'r',
    task: 't',
    model: 'm',
    event: { type: 'trial_end', trial: 0, status: 'passed', passed: true, score: 1, turns: 3 },
  };

  it('parses a logged event', () => {
    expect(parseEventLine(JSON.stringify(line))).toEqual(line);
  });

  it('drops partial, foreign and malformed lines', () => {
    expect(parseEventLine('')).toBeNull();
    expect(parseEventLine(JSON.stringify(line).slice(0, 40))).toBeNull();
    expect(parseEventLine(JSON.stringify({ ...line, event: { type: 'trial_end' } }))).toBeNull();
    expect(parseEventLine(JSON.stringify({ ...line, event: { type: 'mystery', trial: 0 } }))).toBeNull();
    expect(parseEventLine('[1,2]')).toBeNull();
  });
});
