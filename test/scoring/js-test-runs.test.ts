import { describe, expect, it } from 'vitest';
import type { ToolCallLog } from '../../src/results/trial.js';
import { type JsRunKind, jsRunKind } from '../../src/scoring/js-runners.js';
import { jsRuns } from '../../src/scoring/js-test-runs.js';
import { argvWords, proc, readFile, shell, traced, WRITES_ANYWHERE, writeFile } from './call-fixtures.js';

/** The kind of run of a traced program, its argv written space-separated. */
const kind = (argv: string): JsRunKind | null => jsRunKind(argvWords(...argv.split(' ')));

const ctxOf = (...calls: ToolCallLog[]) => ({
  calls: calls.map((c, i) => ({ ...c, turn: i + 1 })),
  declaredWrites: WRITES_ANYWHERE,
});

describe('jsRunKind: a traced program that runs JS tests or a type check', () => {
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
  ])('%s runs tests', (argv) => {
    expect(kind(argv)).toBe('test');
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
  ])('%s type-checks', (argv) => {
    expect(kind(argv)).toBe('typecheck');
  });

  it.each([
    'node stats.mjs',
    "node -e require('./stats.mjs')",
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
  ])('%s does neither', (argv) => {
    expect(kind(argv)).toBeNull();
  });
});

describe('jsRuns: what the trace saw run, and the verdict the model saw', () => {
  const TEST = '/workspace/stats.test.mjs';
  const failing = '# tests 3\n# pass 2\n# fail 1\n';
  const passing = '# tests 3\n# pass 3\n# fail 0\n';
  const nodeTest = (exit: number) =>
    proc(['node', '--test'], { exit, reads: [TEST, '/workspace/stats.mjs'] });

  it('takes the runner’s own exit code when its summary reached the model, whatever the command line', () => {
    const runs = jsRuns(
      ctxOf(
        traced('node --test', { exit: 1, stdout: failing, processes: [nodeTest(1)] }),
        traced('node --test || true', { exit: 0, stdout: failing, processes: [nodeTest(1)] }),
        traced('node --test 2>&1 | tail -n 5', { exit: 0, stdout: passing, processes: [nodeTest(0)] }),
        traced('node --test > /dev/null; echo "exit $?"', {
          exit: 0,
          stdout: 'exit 1\n',
          processes: [nodeTest(1)],
        }),
        traced('echo "# fail 1"', { exit: 0, stdout: '# fail 1\n' }),
        traced('npm test', {
          exit: 1,
          stdout: `> t@1.0.0 test\n> node --test\n\n${failing}`,
          processes: [
            proc(['npm', 'test'], { pid: 7, exe: '/usr/local/bin/npm' }),
            { ...nodeTest(1), parent_pid: 7 },
          ],
        }),
        traced('tsc --noEmit', {
          exit: 2,
          stdout: "inventory.ts(3,5): error TS7006: Parameter 'x' implicitly has an 'any' type.\n",
          processes: [proc(['tsc', '--noEmit'], { exit: 2, reads: ['/workspace/inventory.ts'] })],
        }),
        traced('tsc --noEmit && echo clean', {
          exit: 0,
          stdout: 'clean\n',
          processes: [proc(['tsc', '--noEmit'], { exit: 0, reads: ['/workspace/inventory.ts'] })],
        }),
        traced('tsc --noEmit > /dev/null 2>&1; echo done', {
          exit: 0,
          stdout: 'done\n',
          processes: [
            proc(['tsc', '--noEmit'], { exit: 0, reads: ['/workspace/inventory.ts'], writes: ['/dev/null'] }),
          ],
        }),
        shell('node --test', { exit: 1 }),
      ),
    );
    expect(runs.map((r) => [r.turn, r.kind, r.exitCode])).toEqual([
      [1, 'test', 1],
      [2, 'test', 1],
      [3, 'test', 0],
      [4, 'test', null],
      [6, 'test', 1],
      [7, 'typecheck', 2],
      [8, 'typecheck', 0],
      [9, 'typecheck', null],
    ]);
    expect(runs[0]?.read.has(TEST)).toBe(true);
  });

  it('counts node --test’s per-file children as part of its run, and points at the runner’s process', () => {
    const parent = proc(['node', '--test'], { pid: 50, exit: 1 });
    const child = proc(['/usr/bin/node', '--test-reporter=tap', TEST], {
      pid: 51,
      parent: 50,
      reads: [TEST],
    });
    const runs = jsRuns(
      ctxOf(
        readFile('stats.mjs'),
        traced('cat stats.mjs; node --test', {
          exit: 1,
          stdout: failing,
          processes: [proc(['cat', 'stats.mjs']), parent, child],
        }),
      ),
    );
    expect(runs.map((r) => [r.at, r.kind, [...r.read]])).toEqual([[{ call: 1, step: 2 }, 'test', [TEST]]]);
  });

  it('ignores calls that ran nothing', () => {
    const refused: ToolCallLog = { ...shell('node --test'), invalid: 'bad_arguments' };
    expect(jsRuns(ctxOf(refused, writeFile('x.test.mjs', 'node --test'), readFile('node --test')))).toEqual(
      [],
    );
  });

  it('counts a runner exec’d by a wrapper with its own exit, and one exec’d over as a run of unknown exit', () => {
    const wrapper = { exe: '/usr/bin/bash', argv: ['bash', '-c', 'exec node --test'], cwd: '/workspace' };
    const runs = jsRuns(
      ctxOf(
        traced("bash -c 'exec node --test'", {
          exit: 1,
          stdout: failing,
          processes: [{ ...proc(['node', '--test'], { exit: 1, reads: [TEST] }), earlier_runs: [wrapper] }],
        }),
        traced('node --test (then exec true)', {
          exit: 0,
          stdout: failing,
          processes: [
            {
              ...proc(['true'], { exit: 0, reads: [TEST] }),
              earlier_runs: [{ exe: '/usr/bin/node', argv: ['node', '--test'], cwd: '/workspace' }],
            },
          ],
        }),
      ),
    );
    expect(runs.map((r) => [r.turn, r.kind, r.exitCode, r.read.has(TEST)])).toEqual([
      [1, 'test', 1, true],
      [2, 'test', null, true],
    ]);
  });
});
