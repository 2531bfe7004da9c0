/**
 * The fixture results folder stays what results-set.ts builds (typed against ResultFile), so fixtures cannot
 * drift from the schema. UPDATE_FIXTURES=1 rewrites them (then formats the JSON the way Biome wants it, so
 * `biome check test` stays clean; results files are compared by content, not layout).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readResultFiles } from '../../src/results/store.js';
import { FIXTURE_DIR, fixtureResults } from '../fixtures/results-set.js';

function expectedFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const built of fixtureResults()) {
    files.set(built.fileName, `${JSON.stringify(built.result, null, 2)}\n`);
    for (const [path, content] of built.artifacts) files.set(path, content);
  }
  return files;
}

describe('fixture results folder', () => {
  if (process.env.UPDATE_FIXTURES === '1') {
    it('rewrites the fixtures', () => {
      rmSync(FIXTURE_DIR, { recursive: true, force: true });
      for (const [path, content] of expectedFiles()) {
        mkdirSync(dirname(join(FIXTURE_DIR, path)), { recursive: true });
        writeFileSync(join(FIXTURE_DIR, path), content);
      }
      const biome = join(import.meta.dirname, '..', '..', 'node_modules', '.bin', 'biome');
      execFileSync(biome, ['format', '--write', FIXTURE_DIR], { stdio: 'ignore' });
    });
  }

  it('holds exactly the files results-set.ts builds', () => {
    const expected = expectedFiles();
    const onDisk = readdirSync(FIXTURE_DIR, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => join(d.parentPath, d.name).slice(FIXTURE_DIR.length + 1));
    expect(onDisk.sort()).toEqual([...expected.keys()].sort());
    for (const [path, content] of expected) {
      const actual = readFileSync(join(FIXTURE_DIR, path), 'utf8');
      if (path.endsWith('.json')) expect(JSON.parse(actual), path).toEqual(JSON.parse(content));
      else expect(actual, path).toBe(content);
    }
  });

  it('is read by the real results reader', async () => {
    const read = await readResultFiles(FIXTURE_DIR);
    expect(read.problems).toEqual([]);
    expect(read.results).toHaveLength(fixtureResults().length);
  });
});
