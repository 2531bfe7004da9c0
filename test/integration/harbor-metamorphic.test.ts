/**
 * `validate --metamorphic` on a Harbor task, through the real engine: its oracle (solve.sh, as root)
 * edits a file of the image, the harness learns the file as the image had it from the do-nothing
 * run, and mutates the result. A verifier that tries every boundary catches each mutant; one that
 * tries a value inside each band only lets the boundary mutants (and the bug itself) through, and
 * validate names them.
 * Only the operators a verifier can judge apply (src/tasks/metamorphic.ts, VERIFIER_OPERATORS).
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureImage } from '../../src/sandbox/index.js';
import { validateHarborFolders } from '../helpers/harbor-cli.js';

const FIXTURE = join(import.meta.dirname, 'fixtures/harbor-metamorphic');
const WEAK_TEST = `#!/bin/bash
mkdir -p /logs/verifier
if python3 -c 'import sys; sys.path.insert(0, "/app"); from grade import grade; sys.exit(0 if [grade(s) for s in (95, 85, 75, 50)] == ["A", "B", "C", "F"] else 1)'
then echo 1 > /logs/verifier/reward.txt; else echo 0 > /logs/verifier/reward.txt; fi
`;

let base = '';
let scratch = '';

beforeAll(async () => {
  base = (await ensureImage()).tag;
  scratch = mkdtempSync(join(tmpdir(), 'harbor-metamorphic-'));
}, 600_000);

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

describe('validate --metamorphic on a Harbor task', () => {
  it('mutates what solve.sh changed in the image: every mutant caught, the transforms pass', async () => {
    const { rows, exitCode, error } = await validateHarborFolders([FIXTURE], {
      baseImage: base,
      taskNames: ['harbor-metamorphic'],
      metamorphic: true,
    });
    expect(error).toBe('');
    expect(exitCode).toBe(0);
    const mutants = rows.filter((r) => /metamorphic:code_mutant:grade\.py:/.test(r));
    expect(mutants.length).toBeGreaterThanOrEqual(6);
    for (const r of mutants) expect(r).toMatch(/ ok +caught \(missed reward\)$/);
    expect(rows).toContainEqual(expect.stringMatching(/metamorphic:revert_change +ok +caught/));
    for (const op of ['explore_first', 'background_watcher', 'text_tool_calls'])
      expect(rows).toContainEqual(expect.stringMatching(new RegExp(`metamorphic:${op} +ok +still passes$`)));
    // A verifier judges the end state only: the evidence operators are not asked of it.
    expect(rows.some((r) => /stand_in_run|same_turn_evidence|staged_landing|collateral_edit/.test(r))).toBe(
      false,
    );
  }, 1_200_000);

  it('names the boundary mutant a verifier trying one value per band lets through', async () => {
    const weak = join(scratch, 'harbor-metamorphic');
    cpSync(FIXTURE, weak, { recursive: true });
    writeFileSync(join(weak, 'tests/test.sh'), WEAK_TEST);
    const { rows, exitCode } = await validateHarborFolders([weak], {
      baseImage: base,
      taskNames: ['harbor-metamorphic'],
      metamorphic: true,
    });
    expect(exitCode).toBe(1);
    expect(rows).toContainEqual(
      expect.stringMatching(
        /metamorphic:code_mutant:grade\.py:2:>= → > +FAIL +survives: the trial passes with grade\.py line 2/,
      ),
    );
    // Its values pass the task's own bug too: undoing the fix survives as well.
    expect(rows).toContainEqual(expect.stringMatching(/metamorphic:revert_change +FAIL +survives/));
  }, 1_200_000);
});
