/**
 * `validate --metamorphic` through the real sandbox: a deliberately weak task (its outcome check
 * tries one input) is reported unsound, naming the mutant of its fix that survives; the same task
 * with a check that tries inputs where the rounding matters catches every mutant; the derived
 * must-pass runs of its reference (other editors, other readers, text calls) still pass.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadTaskFolder } from '../../src/catalogue/native/load.js';
import type { Task } from '../../src/tasks/types.js';
import type { ValidationRow } from '../../src/validate/rows.js';
import { validateTasks } from '../../src/validate/validate-tasks.js';
import { IMAGE_TIMEOUT_MS, openSandbox } from '../sandbox/fixture.js';

const WEAK = join(import.meta.dirname, '..', 'fixtures', 'tasks', 'weak_percent_v1');
const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** The weak task's folder with its one-input check replaced by `command`. */
function withCheck(command: string): string {
  const root = mkdtempSync(join(tmpdir(), 'ab-metamorphic-'));
  made.push(root);
  const dir = join(root, 'weak_percent_v1');
  cpSync(WEAK, dir, { recursive: true });
  const toml = readFileSync(join(dir, 'task.toml'), 'utf8');
  writeFileSync(
    join(dir, 'task.toml'),
    toml.replace(/^harness = .*$/m, `harness = { command = "${command}" }`),
  );
  return dir;
}

const prove = (task: Task): Promise<ValidationRow[]> =>
  validateTasks([task], { openSandbox: () => openSandbox({}), metamorphic: true });

const row = (rows: readonly ValidationRow[], run: string) => rows.find((r) => r.run === run);

describe('validate --metamorphic', () => {
  it(
    'reports a task whose check tries one input unsound, naming the surviving mutant and its diff',
    async () => {
      const rows = await prove(loadTaskFolder(WEAK));
      expect(row(rows, 'oracle')?.kind).toBe('passed');
      const survivor = row(rows, 'metamorphic:code_mutant:percent.py:3:2 → 3');
      expect(survivor?.kind).toBe('failed');
      expect(survivor?.detail).toMatch(/^survives: the trial passes with percent\.py line 3: 2 → 3/);
      expect(survivor?.output).toContain('+    return round(fraction * 100, 3)');
      // The mutants its one input tells apart are caught, on the outcome flag.
      for (const what of ['100 → 101', '* → +', 'return None', 'deleted'])
        expect(row(rows, `metamorphic:code_mutant:percent.py:3:${what}`)?.detail).toMatch(
          /^caught \(missed fixed/,
        );
      expect(row(rows, 'metamorphic:revert_change')?.kind).toBe('passed');
      // The reference in other styles passes still; a watcher alive all along moves no date (its
      // trace is followed to its end: it wrote nothing).
      for (const op of [
        'background_watcher',
        'edit_by_shell',
        'edit_via_temp',
        'read_by_shell',
        'text_tool_calls',
        'explore_first',
      ])
        expect(row(rows, `metamorphic:${op}`), op).toMatchObject({ kind: 'passed', detail: 'still passes' });
    },
    IMAGE_TIMEOUT_MS,
  );

  it(
    'finds no survivor once the check tries an input where the rounding shows',
    async () => {
      const strong = withCheck(
        "python3 -c 'from percent import pct; assert pct(0.5) == 50.0 and pct(0.123456) == 12.35'",
      );
      const rows = await prove(loadTaskFolder(strong));
      const mutants = rows.filter((r) => r.run.startsWith('metamorphic:code_mutant:'));
      expect(mutants.length).toBeGreaterThanOrEqual(5);
      expect(mutants.filter((r) => r.kind !== 'passed')).toEqual([]);
    },
    IMAGE_TIMEOUT_MS,
  );
});
