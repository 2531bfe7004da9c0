/**
 * scripts/function-length.mjs, the lint's function-length rule, run as `npm run lint` runs it: in a
 * project folder, here a temporary one.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = join(import.meta.dirname, '..', '..', 'scripts', 'function-length.mjs');
const ALLOW = 'scripts/function-length-allow.json';

/** A function declaration of exactly `lines` lines, from `function` to its closing brace. */
const fn = (name: string, lines: number): string =>
  [`function ${name}() {`, ...Array.from({ length: lines - 2 }, (_, i) => `  const v${i} = ${i};`), '}'].join(
    '\n',
  );

const body = (lines: number): string[] => Array.from({ length: lines }, (_, i) => `  void ${i};`);

let project: string;

function checkIn(files: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  project = mkdtempSync(join(tmpdir(), 'ab-fnlen-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(project, path)), { recursive: true });
    writeFileSync(join(project, path), content);
  }
  const run = spawnSync(process.execPath, [SCRIPT], { cwd: project, encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

afterEach(() => rmSync(project, { recursive: true, force: true }));

describe('function-length', () => {
  it('fails an 81-line function and a stale allow-list entry; passes 80 lines and an allow-listed one', () => {
    const run = checkIn({
      'src/over.ts': `${fn('tooLong', 81)}\n`,
      'src/limit.ts': `// exactly the limit\n${fn('justRight', 80)}\n`,
      'tasks/some_task/flags.ts': `${fn('allowed', 120)}\n`,
      [ALLOW]: JSON.stringify({
        'tasks/some_task/flags.ts#allowed': 'one table of options',
        'src/limit.ts#gone': 'to split: it was, and then it was renamed',
      }),
    });
    expect(run).toEqual({
      status: 1,
      stdout: [
        'src/over.ts:1 tooLong is 81 lines (limit 80)',
        `${ALLOW}: src/limit.ts#gone is not a function over 80 lines (any more): remove it`,
        '',
      ].join('\n'),
      stderr: '',
    });
  });

  it('passes when every long function is allow-listed and every entry still matches one', () => {
    const run = checkIn({
      'src/limit.ts': `${fn('justRight', 80)}\n`,
      'bin/tool': `#!/usr/bin/env node\n${fn('allowed', 81)}\n`,
      [ALLOW]: JSON.stringify({ 'bin/tool#allowed': 'one table of options' }),
    });
    expect(run).toEqual({
      status: 0,
      stdout: 'function-length: 2 files, no function over 80 lines but the 1 allow-listed\n',
      stderr: '',
    });
  });

  it('measures an outer function with its nested ones, and each nested one on its own, by qualified name', () => {
    const nested = [
      'export const handlers = {',
      '  run() {',
      '    const step = () => {',
      ...body(79),
      '    };',
      '    step();',
      '  },',
      '};',
      'class Box {',
      '  get size() {',
      ...body(81),
      '  }',
      '}',
      'export default () => {',
      '  [1].map((n) => {',
      ...body(79),
      '  });',
      '};',
      '',
    ].join('\n');
    const run = checkIn({
      'src/nested.ts': nested,
      // A task's workspace, hidden tests and solutions are the agent's material: not checked.
      'tasks/t/files/long.ts': `${fn('theAgentsProblem', 200)}\n`,
      'tasks/t/solution/long.ts': `${fn('theAgentsProblem', 200)}\n`,
    });
    expect(run.stdout.split('\n')).toEqual([
      'src/nested.ts:2 handlers.run is 84 lines (limit 80)',
      'src/nested.ts:3 handlers.run.step is 81 lines (limit 80)',
      'src/nested.ts:88 Box.get size is 83 lines (limit 80)',
      'src/nested.ts:172 default is 83 lines (limit 80)',
      'src/nested.ts:173 default.map callback is 81 lines (limit 80)',
      '',
    ]);
    expect(run.status).toBe(1);
  });

  it('needs a reason for every allow-listed function', () => {
    const run = checkIn({
      'src/over.ts': `${fn('tooLong', 81)}\n`,
      [ALLOW]: JSON.stringify({ 'src/over.ts#tooLong': ' ' }),
    });
    expect(run.stdout).toBe(`${ALLOW}: src/over.ts#tooLong needs a one-line reason\n`);
    expect(run.status).toBe(1);
  });
});
