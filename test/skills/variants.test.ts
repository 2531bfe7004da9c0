/**
 * A skill manifest's "variants": the folder is one instance of a family whose generator's files
 * are laid over it; `{{instance.*}}` in the manifest is filled from .bench/instance.json, which the
 * agent never sees. The generator's run is proven in test/integration/variants-js-skill.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadSkill } from '../../src/skills/load.js';
import { skillTask } from '../../src/skills/skill-task.js';
import { type InstanceTree, skillTreeProblem } from '../../src/tasks/variants/instance-tree.js';
import { UsageError } from '../../src/util/errors.js';
import { generatedOf } from '../helpers/task-variants.js';
import { removeSkillFolders, skillFolder } from './skill-folder.js';

afterEach(removeSkillFolders);

const MANIFEST = {
  id: 'count_rows',
  goal: 'Count the rows of skill/data/rows.csv: there are {{instance.rows}}.',
  required_commands: [{ id: 'count', pattern: 'wc\\s+-l\\s+\\S*data/rows\\.csv' }],
  reference_solution: [
    { name: 'execute_command', arguments: { command: 'wc -l skill/data/rows.csv' } },
    { text: '{{instance.rows}} rows.', calls: [] },
  ],
  variants: { generator: '.bench/generate.sh', count_hint: 30 },
};

const FILES = {
  'SKILL.md': 'Count with `wc -l`.\n',
  'data/rows.csv': 'a\nb\n',
  '.bench/instance.json': '{ "rows": 2 }\n',
  '.bench/generate.sh': '#!/bin/sh\nexit 0\n',
};

const tree = (files: Record<string, string>): InstanceTree =>
  new Map(Object.entries(files).map(([rel, text]) => [rel, { content: Buffer.from(text), mode: 0o644 }]));

function problemsOf(dir: string): string {
  try {
    loadSkill(dir);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error('the skill loaded');
}

describe('a skill manifest with variants', () => {
  it("is its folder's own instance: the manifest filled from .bench/instance.json, the generator named", () => {
    const dir = skillFolder(FILES, MANIFEST, { executable: ['.bench/generate.sh'] });
    const task = skillTask(loadSkill(dir));
    expect(task.prompt).toContain('there are 2.');
    expect(task.referenceSolution.at(-1)?.text).toBe('2 rows.');
    const variants = task.variants;
    expect(variants).toMatchObject({ generator: '.bench/generate.sh', countHint: 30, values: { rows: 2 } });
    expect(variants?.instance).toBeUndefined();
    // The values are bench-only: the agent's mount holds the data, not the answer.
    expect(task.mountedFiles.map((f) => f.path).sort()).toEqual(['skill/SKILL.md', 'skill/data/rows.csv']);
  });

  it("an instance lays the generator's files over the folder: its data, its values, its own digest", () => {
    const dir = skillFolder(FILES, MANIFEST, { executable: ['.bench/generate.sh'] });
    const task = skillTask(loadSkill(dir));
    const instance = generatedOf(task).instanceOf(
      tree({ 'data/rows.csv': 'a\nb\nc\nd\ne\n', '.bench/instance.json': '{ "rows": 5 }' }),
      'seed7',
    );
    if (instance?.kind !== 'skill') throw new Error('no skill instance');
    expect(instance.prompt).toContain('there are 5.');
    expect(instance.referenceSolution.at(-1)?.text).toBe('5 rows.');
    expect(instance.variants).toMatchObject({ instance: 'seed7', values: { rows: 5 } });
    expect(instance.mountedFiles.find((f) => f.path === 'skill/data/rows.csv')?.content).toBe(
      'a\nb\nc\nd\ne\n',
    );
    // The files the generator did not write stay the folder's.
    expect(instance.mountedFiles.find((f) => f.path === 'skill/SKILL.md')?.content).toBe(FILES['SKILL.md']);
    expect(instance.source?.skill).not.toBe(task.source?.skill);
    expect(instance.environment.mounts[0]?.hostPath).not.toBe(task.environment.mounts[0]?.hostPath);
  });

  it('a manifest without variants is read as before: {{instance.*}} is plain text there', () => {
    const { variants: _, ...plain } = MANIFEST;
    const task = skillTask(loadSkill(skillFolder(FILES, plain)));
    expect(task.prompt).toContain('there are {{instance.rows}}.');
    expect(task.variants).toBeUndefined();
  });

  it('refuses, in one line each: no values file, a placeholder the values lack, a generator that is not executable', () => {
    const { '.bench/instance.json': _, ...noValues } = FILES;
    expect(problemsOf(skillFolder(noValues, MANIFEST, { executable: ['.bench/generate.sh'] }))).toMatch(
      /\.bench\/instance\.json: a skill with "variants" keeps one instance of its own/,
    );
    const lacking = { ...FILES, '.bench/instance.json': '{ "lines": 2 }' };
    expect(problemsOf(skillFolder(lacking, MANIFEST, { executable: ['.bench/generate.sh'] }))).toMatch(
      /count_rows: \{\{instance\.rows\}\}: instance of the folder has no key "rows"/,
    );
    expect(problemsOf(skillFolder(FILES, MANIFEST))).toMatch(/variants\.generator: is not executable/);
    const missing = { ...MANIFEST, variants: { generator: 'gen.py' } };
    expect(problemsOf(skillFolder(FILES, missing))).toMatch(
      /variants\.generator: not a file of the skill folder/,
    );
  });
});

describe("a skill generator's output", () => {
  it('holds .bench/instance.json, never the manifest, nothing outside the folder', () => {
    expect(skillTreeProblem(tree({ 'data/x.csv': '', '.bench/instance.json': '{}' }))).toBeNull();
    expect(skillTreeProblem(tree({ 'data/x.csv': '' }))).toBe('wrote no .bench/instance.json');
    expect(skillTreeProblem(tree({ 'bench_manifest.json': '{}', '.bench/instance.json': '{}' }))).toMatch(
      /^wrote bench_manifest\.json: a skill's generator writes the folder's files but bench_manifest\.json$/,
    );
    expect(skillTreeProblem(tree({ '../x': '', '.bench/instance.json': '{}' }))).toMatch(/^wrote \.\.\/x/);
  });
});
