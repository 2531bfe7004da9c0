/**
 * A task folder with [variants]: the folder is one instance of it (its instance.json fills the
 * manifest), a generated instance is the folder with the generator's files in place of its own, and
 * a task without [variants] is read exactly as before.
 */
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadTaskFolder } from '../../../src/catalogue/native/load.js';
import { trialInstances } from '../../../src/run/trial-instances.js';
import type { SandboxTask } from '../../../src/tasks/types.js';
import type { InstanceTree } from '../../../src/tasks/variants/instance-tree.js';
import { type InstanceSource, instanceValuesOf } from '../../../src/tasks/variants/instances.js';
import { taskVersion } from '../../../src/tasks/version.js';
import { generatedOf, ofKind } from '../../helpers/task-variants.js';
import { MINIMAL_FILES, MINIMAL_TOML, removeTaskFolders, taskFolder } from '../folder/task-folder.js';

afterEach(removeTaskFolders);

const VARIANT_TOML = `${MINIMAL_TOML.replace(
  'contains = ["done"]',
  'contains = ["{{instance.word}}"]',
).replace(
  'content = "done\\n"',
  'content = "{{instance.word}}\\n"',
)}\n[variants]\ngenerator = "variants/generate.py"\n`;

function variantFolder(extra: Record<string, string> = {}): string {
  const dir = taskFolder({
    ...MINIMAL_FILES,
    'task.toml': VARIANT_TOML,
    'instruction.md': 'Write {{instance.word}} to /workspace/out.txt.\n',
    'instance.json': '{"word": "done"}',
    'variants/generate.py': '#!/usr/bin/env python3\n',
    ...extra,
  });
  chmodSync(join(dir, 'variants/generate.py'), 0o755);
  return dir;
}

function instanceOf(base: SandboxTask, tree: InstanceTree, id: string): SandboxTask {
  return ofKind(generatedOf(base).instanceOf(tree, id), 'sandbox');
}

const text = (s: string) => ({ content: Buffer.from(s), mode: 0o644 });
const TREE: InstanceTree = new Map([
  ['files/notes.txt', text('alpha\nbeta\n')],
  ['solution/out.txt', text('finished\n')],
  ['instance.json', text('{"word": "finished"}')],
]);

describe('a variant task folder', () => {
  it('is its own instance: instance.json fills the instruction, the flags and the scripts', () => {
    const task = loadTaskFolder(variantFolder());
    expect(task.prompt).toBe('Write done to /workspace/out.txt.');
    expect(task.lures?.[0]?.script[0]?.calls[0]?.arguments).toEqual({ path: 'out.txt', content: 'done\n' });
    expect(task.variants).toMatchObject({ generator: 'variants/generate.py' });
    expect(task.variants?.instance).toBeUndefined();
  });

  it('has a version that changes with what its generator can read', () => {
    const a = taskVersion(loadTaskFolder(variantFolder()));
    const b = taskVersion(loadTaskFolder(variantFolder({ 'variants/family.txt': 'one more bug kind\n' })));
    expect(a).not.toBe(b);
  });

  it('needs instance.json and an executable generator, each one line', () => {
    const dir = taskFolder({ ...MINIMAL_FILES, 'task.toml': VARIANT_TOML, 'variants/generate.py': '' });
    expect(() => loadTaskFolder(dir)).toThrow(/instance\.json: a task with \[variants\] keeps one instance/);
    const noExec = taskFolder({
      ...MINIMAL_FILES,
      'task.toml': VARIANT_TOML,
      'instance.json': '{"word": "done"}',
      'variants/generate.py': '',
    });
    expect(() => loadTaskFolder(noExec)).toThrow(/variants\.generator: is not executable/);
  });

  it('a generated instance is the folder with the generated files, solution and values', () => {
    const base = loadTaskFolder(variantFolder());
    const inst = instanceOf(base, TREE, 'seed1');
    expect(inst.id).toBe(base.id);
    expect(inst.prompt).toBe('Write finished to /workspace/out.txt.');
    expect(inst.files).toEqual([{ path: 'notes.txt', content: 'alpha\nbeta\n' }]);
    expect(inst.referenceSolution[1]?.calls[0]?.arguments).toEqual({
      path: 'out.txt',
      content: 'finished\n',
    });
    expect(inst.lures?.[0]?.script[0]?.calls[0]?.arguments).toEqual({
      path: 'out.txt',
      content: 'finished\n',
    });
    expect(inst.variants?.instance).toBe('seed1');
    // Flag code reads the same values as ctx.instance.
    expect(instanceValuesOf(inst)).toEqual({ word: 'finished' });
    expect(instanceValuesOf(base)).toEqual({ word: 'done' });
  });

  it('an instance lacking a key the manifest names is one line naming the task, the key and the instance', () => {
    const base = loadTaskFolder(variantFolder());
    const tree = new Map(TREE);
    tree.set('instance.json', text('{"other": 1}'));
    expect(() => instanceOf(base, tree, 'seed2')).toThrow(
      /^sample_task_v1: \{\{instance\.word\}\}: instance seed2 has no key "word"/,
    );
  });

  it('a task without [variants] is read as before: {{instance.*}} is plain text there', () => {
    const dir = taskFolder({ ...MINIMAL_FILES, 'instruction.md': 'Say {{instance.word}}.\n' });
    const task = loadTaskFolder(dir);
    expect(task.prompt).toBe('Say {{instance.word}}.');
    expect(task.variants).toBeUndefined();
  });
});

describe('trial instances', () => {
  const source: InstanceSource = { instance: async (task) => task };

  it('draw one instance per trial index from the seed, or replay --variant for every trial', () => {
    const task = loadTaskFolder(variantFolder());
    const v = taskVersion(task);
    const drawn = trialInstances(task, v, { seed: 1 }, source);
    const ids = [0, 1, 2].map((i) => drawn?.idOf(i));
    expect(new Set(ids).size).toBe(3);
    expect(drawn?.settings).toEqual({ variant_seed: 1 });
    expect([0, 1, 2].map((i) => trialInstances(task, v, { seed: 1 }, source)?.idOf(i))).toEqual(ids);
    expect(trialInstances(task, v, { seed: 2 }, source)?.idOf(0)).not.toBe(ids[0]);
    const replay = trialInstances(task, v, { seed: 1, replay: 'abc' }, source);
    expect([replay?.idOf(0), replay?.idOf(5)]).toEqual(['abc', 'abc']);
    expect(replay?.settings).toEqual({ variant_seed: 1, variant: 'abc' });
  });

  it('are none for a task with one instance', () => {
    const task = loadTaskFolder(taskFolder(MINIMAL_FILES));
    expect(trialInstances(task, taskVersion(task), { seed: 1 }, source)).toBeNull();
  });
});
