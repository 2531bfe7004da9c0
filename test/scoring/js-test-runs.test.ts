import { describe, expect, it } from 'vitest';
import type { ToolCallLog } from '../../src/results/trial.js';
import { type JsRunKind, jsRunKind } from '../../src/scoring/js-runners.js';
import { jsRuns } from '../../src/scoring/js-test-runs.js';
import { parseCommandLine } from '../../src/scoring/shell-commands.js';
import { readFile, shell, writeFile } from './call-fixtures.js';

const kinds = (command: string): JsRunKind[] =>
  parseCommandLine(command, '/workspace').flatMap((c) => {
    const kind = jsRunKind(c.argv);
    return kind === null ? [] : [kind];
  });

const ctxOf = (...calls: ToolCallLog[]) => ({ calls: calls.map((c, i) => ({ ...c, turn: i + 1 })) });

describe('jsRunKind: a simple command that runs JS tests or a type check', () => {
  it.each([
    'node --test',
    'node --test stats.test.mjs',
    'node --test-reporter=tap --test',
    'node --test --test-reporter tap pages.test.mjs',
    'node stats.test.mjs',
    'node test/stats.mjs',
    'node ./pages-test.js',
    'nodejs --test',
    'npm test',
    'npm t',
    'npm run test',
    'npm run test:unit',
    'npm run-script test',
    'yarn test',
    'pnpm test',
    'npx jest',
    'npx --yes vitest run',
    'npx mocha',
    'jest --runInBand',
    'cd /workspace && node --test 2>&1',
    "bash -lc 'node --test'",
    'timeout 60 node --test',
  ])('%s runs tests', (command) => {
    expect(kinds(command)).toEqual(['test']);
  });

  it.each([
    'tsc',
    'tsc --noEmit',
    'tsc -p .',
    'tsc --noEmit --strict inventory.ts',
    'npx tsc --noEmit',
    'npx -p typescript tsc',
    'npm exec -- tsc --noEmit',
    'node /usr/bin/tsc --noEmit',
    'node node_modules/typescript/bin/tsc',
    '/usr/bin/tsc',
  ])('%s type-checks', (command) => {
    expect(kinds(command)).toEqual(['typecheck']);
  });

  it.each([
    'node stats.mjs',
    'node -e "require(\'./stats.mjs\')"',
    'node -p 1+1',
    'node --check stats.test.mjs',
    'node --version',
    'node',
    'echo node --test',
    'cat stats.test.mjs',
    'grep -n test stats.test.mjs',
    'npm install',
    'npm run build',
    'npx prettier --write x.js',
    'tsc --version',
    'tsc --init',
    'tsc --showConfig',
    'jest --help',
    'node --test --help',
    '# node --test',
  ])('%s does neither', (command) => {
    expect(kinds(command)).toEqual([]);
  });
});

describe('jsRuns: exit codes, and the same masking rule as pytest', () => {
  it('takes the exit code only when the line reports the runner’s own', () => {
    const runs = jsRuns(
      ctxOf(
        shell('node --test', { exit: 1 }),
        shell('node --test || true', { exit: 0 }),
        shell('node --test 2>&1 | tail -n 5', { exit: 0 }),
        shell('node --test; echo "exit $?"', { exit: 0 }),
        shell('cd /workspace && tsc', { exit: 2 }),
        shell('tsc | head', { exit: 0 }),
        shell('make && node --test', { exit: 1 }),
        shell('make && node --test', { exit: 0 }),
        shell('node --test', { exit: null, timedOut: true }),
      ),
    );
    expect(runs.map((r) => [r.turn, r.kind, r.exitCode, r.masked])).toEqual([
      [1, 'test', 1, false],
      [2, 'test', null, true],
      [3, 'test', null, true],
      [4, 'test', null, true],
      [5, 'typecheck', 2, false],
      [6, 'typecheck', null, true],
      [7, 'test', null, true],
      [8, 'test', 0, false],
      [9, 'test', null, true],
    ]);
  });

  it('points at the step, in line with the ordering module', () => {
    const runs = jsRuns(
      ctxOf(readFile('stats.mjs'), shell('cat stats.mjs; tsc && node --test', { exit: 0 })),
    );
    expect(runs.map((r) => [r.at, r.kind])).toEqual([
      [{ call: 1, step: 1 }, 'typecheck'],
      [{ call: 1, step: 2 }, 'test'],
    ]);
  });

  it('ignores calls that ran nothing', () => {
    const refused: ToolCallLog = { ...shell('node --test'), invalid: 'bad_arguments' };
    expect(jsRuns(ctxOf(refused, writeFile('x.test.mjs', 'node --test'), readFile('node --test')))).toEqual(
      [],
    );
  });
});
