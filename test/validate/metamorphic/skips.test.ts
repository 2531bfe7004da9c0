import { afterEach, describe, expect, it } from 'vitest';
import { loadTaskFolder } from '../../../src/catalogue/native/load.js';
import { proofKey } from '../../../src/validate/proof-key.js';
import {
  MINIMAL_FILES,
  MINIMAL_TOML,
  removeTaskFolders,
  taskFolder,
} from '../../tasks/folder/task-folder.js';

afterEach(removeTaskFolders);

const withSkip = (table: string) =>
  taskFolder({ ...MINIMAL_FILES, 'task.toml': `${MINIMAL_TOML}\n[metamorphic.skip]\n${table}\n` });

describe('[metamorphic.skip]', () => {
  it("is read as the task's skips, each with its reason", () => {
    const task = loadTaskFolder(withSkip('split_turns = "the read and the write must share a turn"'));
    expect(task.metamorphicSkips).toEqual({ split_turns: 'the read and the write must share a turn' });
  });

  it('names an operator that does not exist, and a skip without a reason', () => {
    expect(() => loadTaskFolder(withSkip('split_turn = "typo"'))).toThrow(
      /metamorphic\.skip\.split_turn: no such operator; the operators: revert_change, /,
    );
    expect(() => loadTaskFolder(withSkip('split_turns = " "'))).toThrow(
      /give the reason the operator does not apply/,
    );
  });

  it('keys a metamorphic proof apart from a plain one, and by the skips', () => {
    const plain = loadTaskFolder(taskFolder(MINIMAL_FILES));
    const skipping = { ...plain, metamorphicSkips: { split_turns: 'why' } };
    const inputs = { image: 'i', harness: 'h', files: 'f' };
    expect(proofKey(plain, { ...inputs, metamorphic: true })).not.toBe(proofKey(plain, inputs));
    expect(proofKey(skipping, { ...inputs, metamorphic: true })).not.toBe(
      proofKey(plain, { ...inputs, metamorphic: true }),
    );
  });
});

describe('a single derived run skipped', () => {
  it('is named by its id, under an operator that exists', () => {
    const task = loadTaskFolder(withSkip('"artifact_swap:out.txt:numbers" = "its numbers are free"'));
    expect(task.metamorphicSkips).toEqual({ 'artifact_swap:out.txt:numbers': 'its numbers are free' });
    expect(() => loadTaskFolder(withSkip('"swap:out.txt" = "typo"'))).toThrow(/no such operator/);
  });
});
