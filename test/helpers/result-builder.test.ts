/** What the test result builder makes is a results file the real reader takes, field for field. */
import { describe, expect, it } from 'vitest';
import { ResultFileSchema } from '../../src/results/schema.js';
import { parseResultFile } from '../../src/results/store.js';
import { fixtureResults } from '../fixtures/results-set.js';
import { buildResult, MISS, NO_TOOLS, OUTCOME_ONLY, PASS, result } from './result-builder.js';

const brief = result({
  task: 'fix_v1',
  model: 'qwen',
  k: 8,
  trials: [PASS, MISS, OUTCOME_ONLY, NO_TOOLS, { calls: 'invalid' }, { status: 'error' }, { tamper: true }],
  nonComparable: ['crafted'],
});

const turnByTurn = buildResult({
  task: 'fix_v1',
  model: 'qwen',
  runId: '20250101T000000000Z-0001',
  maxTurns: 4,
  trials: [
    {
      flags: { read: ['process', 1], quiet: ['process', null, 'absence'], fixed: ['outcome', false] },
      turns: [
        { text: 'reading', calls: [{ name: 'read_file', args: { path: 'a.py' }, stdout: 'x' }] },
        { malformed: 'bad JSON', calls: [{ name: 'write_file', args: null, invalid: 'bad_arguments' }] },
        { calls: [{ name: 'run', source: 'text', invalid: 'missing_argument' }], usage: null },
      ],
      failure: 'max_turns_exhausted',
      final: null,
      artifacts: { 'out/a.txt': 'a\n' },
    },
  ],
});

describe('the test result builder', () => {
  it.each([
    ['brief trials', brief],
    ['trials turn by turn, with artifacts', turnByTurn.result],
    ...fixtureResults().map((b): [string, typeof brief] => [`fixture ${b.fileName}`, b.result]),
  ])('makes a file the results schema parses without dropping a field: %s', (_what, file) => {
    expect(ResultFileSchema.parse(file)).toEqual(file);
    expect(parseResultFile(JSON.stringify(file))).toEqual({ ok: true, result: file });
  });
});
