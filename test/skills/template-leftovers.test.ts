/**
 * validate refuses what `skill init` left to decide (the TODO goal, the `_todo` notes), one row per
 * note, each with the file and line to edit — before any container starts. The starter still loads.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { skillInitCommand } from '../../src/cli/commands/skill.js';
import { validateCommand } from '../../src/cli/commands/validate.js';
import { loadSkill } from '../../src/skills/load.js';
import { templateLeftovers } from '../../src/skills/template-leftovers.js';
import { UsageError } from '../../src/util/errors.js';
import { removeSkillFolders, skillFolder } from './skill-folder.js';

afterEach(removeSkillFolders);

const quiet = { write: () => true };

async function starter(): Promise<string> {
  const dir = skillFolder(
    {
      'SKILL.md': '# s\n\nRun `bash scripts/go.sh`; results go to output/r.txt.\n',
      'scripts/go.sh': 'echo\n',
    },
    undefined,
    { name: 's' },
  );
  await skillInitCommand(dir, { force: false, stdout: quiet });
  return dir;
}

describe("validate and skill init's leftovers", () => {
  it('names the TODO goal and every _todo note with the line to edit', async () => {
    const dir = await starter();
    const file = join(dir, 'bench_manifest.json');
    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n');
    const problems = templateLeftovers(text, file);
    const goal = problems.find((p) => p.at === 'goal');
    const goalLine = lines.findIndex((l) => l.includes('"goal"')) + 1;
    expect(goal?.message).toBe(
      `${file}:${goalLine}: still skill init's placeholder; write the request a user makes of this skill`,
    );
    const todo = JSON.parse(text)._todo as string[];
    expect(problems.filter((p) => p.at.startsWith('_todo['))).toHaveLength(todo.length);
    const first = problems.find((p) => p.at === '_todo[0]');
    const firstLine = lines.findIndex((l) => l.includes(JSON.stringify(todo[0]))) + 1;
    expect(first?.message).toMatch(
      new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${firstLine}: to decide: goal: `),
    );
    // The loader still takes it: skill init's output loads as it is.
    expect(loadSkill(dir).spec.commands).toHaveLength(1);
  });

  it('validate --skill-dir refuses an unedited starter (exit 2), one row per problem', async () => {
    const dir = await starter();
    const err = await validateCommand({ tasks: 'all', skillDir: [dir] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    const rows = (err as Error).message.split('\n');
    expect(rows[0]).toMatch(/^skill folder .*s has \d+ problems:$/);
    expect(rows[1]).toMatch(/^ {2}goal: .*bench_manifest\.json:\d+: still skill init's placeholder/);
    expect(
      rows.filter((r) => /^ {2}_todo\[\d+\]: .*bench_manifest\.json:\d+: to decide: /.test(r)).length,
    ).toBeGreaterThan(0);
  });

  it('an edited manifest (a real goal, no _todo, or an empty one) has no leftovers', () => {
    const text = JSON.stringify({ goal: 'Make the report.', _todo: [] }, null, 2);
    expect(templateLeftovers(text, 'm.json')).toEqual([]);
    expect(templateLeftovers('{ not json', 'm.json')).toEqual([]);
  });
});

describe('artifact_checks[].contains', () => {
  it('takes a single string as well as a list', () => {
    const manifest = (contains: unknown) => ({
      goal: 'Write r.txt.',
      expected_artifacts: ['output/r.txt'],
      artifact_checks: [{ file: 'output/r.txt', contains, not_contains: 'TODO' }],
    });
    const one = loadSkill(skillFolder({ 'SKILL.md': 'x' }, manifest('done')));
    const list = loadSkill(skillFolder({ 'SKILL.md': 'x' }, manifest(['done'])));
    expect(one.spec).toEqual({ ...list.spec });
    expect(JSON.stringify(one.spec)).toContain('"done"');
  });
});
