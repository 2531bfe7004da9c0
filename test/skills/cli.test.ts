/**
 * The skill parts of the command line: task selection with --skill-dir and --skill-ab, manifest
 * errors as exit 2 before any container starts, and `skill init` on a sample folder.
 */
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { allTasks } from '../../src/catalogue/built-in.js';
import { runCommand } from '../../src/cli/commands/run.js';
import { skillInitCommand } from '../../src/cli/commands/skill.js';
import { selectWithSkills } from '../../src/cli/select-tasks.js';
import { loadSkill } from '../../src/skills/load.js';
import { UsageError } from '../../src/util/errors.js';
import { LEGACY_SKILL, removeSkillFolders, skillFolder } from './skill-folder.js';

afterEach(removeSkillFolders);

const ids = (tasks: { id: string }[]) => tasks.map((t) => t.id);
const select = (tasks: string, skillDirs: string[] = [], skillAb = false) =>
  selectWithSkills({ tasks, skillDirs, skillAb });

describe('selecting skill tasks', () => {
  const mine = () => skillFolder({ 'SKILL.md': '# x\n' }, { id: 'my_skill_v1' });

  it('runs only the skills when --skill-dir is given and the list is left at all', () => {
    expect(ids(select('all', [mine()]))).toEqual(['my_skill_v1']);
    expect(ids(select('skill_run_v1', [mine()]))).toEqual(['my_skill_v1']);
  });

  it('adds the skills to a named list, or to everything with all,skill_run_v1', () => {
    expect(ids(select('debug_python_v1', [mine()]))).toEqual(['debug_python_v1', 'my_skill_v1']);
    const everything = ids(select('all,skill_run_v1', [mine()]));
    expect(everything).toHaveLength(allTasks().length + 1);
    expect(everything.at(-1)).toBe('my_skill_v1');
  });

  it('refuses skill_run_v1 without a folder, two skills with one id, and --skill-ab on a non-skill', () => {
    expect(() => select('skill_run_v1')).toThrow(/--skill-dir DIR/);
    expect(() =>
      select('all', [LEGACY_SKILL, skillFolder({ 'SKILL.md': 'y' }, { id: 'skill_run_v1_report' })]),
    ).toThrow(/two tasks have the id skill_run_v1_report/);
    expect(() => select('debug_python_v1', [], true)).toThrow(/debug_python_v1 is no skill task/);
  });

  it('pairs every skill with its no-skill variant for --skill-ab, bundled skills included', () => {
    expect(ids(select('tool_mirage_v1', [], true))).toEqual(['tool_mirage_v1', 'tool_mirage_v1__noskill']);
    const [on, off] = select('tool_mirage_v1', [], true);
    expect(off?.flags.map((f) => f.id)).toEqual([
      'artifact:output/summary.txt',
      'artifact:output/report.md',
      'check:ROWS=12',
      'check:TOTAL=30882',
      'check:output/summary.txt:no_placeholders',
      'check:output/summary.txt:derived_from',
      'check:report:# Sales Report',
      'check:report:TOTAL=30882',
      'check:report:output/report.md:no_placeholders',
      'check:report:output/report.md:derived_from',
      'no_tool_hallucination',
      'step_completion',
    ]);
    expect(off?.prompt).toMatch(
      /^Your goal: Summarize the bundled sales data and publish the Markdown report\.\n/,
    );
    expect(off?.kind === 'skill' && off.source?.skill).toBe(on?.kind === 'skill' && on.source?.skill);
  });

  it('reports the problems of every broken folder at once, as exit 2, before any container', async () => {
    const a = skillFolder({ 'SKILL.md': 'x' }, { max_turns: -1 });
    const b = skillFolder({ 'SKILL.md': 'x' }, { stubs: { 'scripts/x.sh': {} } });
    const run = runCommand({
      tasks: 'all',
      skillDir: [a, b],
      skillAb: false,
      conditions: 'clean',
      failureRate: 0.2,
    } as Parameters<typeof runCommand>[0]);
    await expect(run).rejects.toBeInstanceOf(UsageError);
    const message = await run.catch((err: Error) => err.message);
    expect(message).toMatch(/max_turns: Too small/);
    expect(message).toMatch(/stubs\["scripts\/x\.sh"\]: file not found in skill folder/);
    expect(await run.catch((err: UsageError) => err.exitCode)).toBe(2);
  });
});

describe('skill init', () => {
  const sample = () =>
    skillFolder(
      {
        'SKILL.md':
          '# thumbs\n\nRead [the style guide](docs/style.md), then run\n\n    python3 /workspace/skill/scripts/thumbs.py --in /workspace/skill/data/photos.csv --out /workspace/output/thumbs.json\n\nand `bash scripts/publish.sh`. Results go to output/thumbs.json.\n',
        'docs/style.md': 'style\n',
        'data/photos.csv': 'a\n',
        'scripts/thumbs.py': 'print(1)\n',
        'scripts/publish.sh': 'echo\n',
        'scripts/unused.sh': 'echo\n',
      },
      undefined,
      { name: 'thumbs' },
    );

  it('writes a starter manifest that loads, with TODOs for what a person must decide', async () => {
    const dir = sample();
    let out = '';
    await skillInitCommand(dir, { force: false, stdout: { write: (s: string) => (out += s) } });
    const manifest = JSON.parse(readFileSync(join(dir, 'bench_manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({
      id: 'skill_run_v1_thumbs',
      goal: expect.stringMatching(/^TODO/),
      required_reads: ['skill/SKILL.md', 'skill/data/photos.csv', 'skill/docs/style.md'],
      // In the order SKILL.md names them.
      required_commands: [
        { pattern: 'thumbs\\.py', exit_code: 0 },
        { pattern: 'publish\\.sh', exit_code: 0 },
      ],
      expected_artifacts: ['output/thumbs.json'],
      allowed_writes: ['output/**'],
      stubs: {},
    });
    expect(manifest._todo.join('\n')).toMatch(/scripts\/unused\.sh: SKILL\.md does not mention it/);
    expect(out).toMatch(/agent-bench validate --skill-dir/);
    expect(loadSkill(dir).spec.commands).toHaveLength(2);
  });

  it('does not overwrite a manifest without --force', async () => {
    const dir = sample();
    const quiet = { write: () => true };
    await skillInitCommand(dir, { force: false, stdout: quiet });
    await expect(skillInitCommand(dir, { force: false, stdout: quiet })).rejects.toThrow(/pass --force/);
    await expect(skillInitCommand(dir, { force: true, stdout: quiet })).resolves.toBeUndefined();
  });

  it('writes a reference_solution skeleton: the reads, then the scripts in SKILL.md order, then an answer', async () => {
    const dir = sample();
    await skillInitCommand(dir, { force: false, stdout: { write: () => true } });
    const manifest = JSON.parse(readFileSync(join(dir, 'bench_manifest.json'), 'utf8'));
    expect(manifest.reference_solution).toEqual([
      { name: 'read_file', arguments: { path: 'skill/SKILL.md' } },
      { name: 'read_file', arguments: { path: 'skill/data/photos.csv' } },
      { name: 'read_file', arguments: { path: 'skill/docs/style.md' } },
      // Documented in SKILL.md as a command line: replayed as documented.
      {
        name: 'execute_command',
        arguments: {
          command:
            'python3 /workspace/skill/scripts/thumbs.py --in /workspace/skill/data/photos.csv --out /workspace/output/thumbs.json',
        },
      },
      // Named only in prose: the bare script, marked for its arguments.
      {
        name: 'execute_command',
        arguments: {
          command: 'sh /workspace/skill/scripts/publish.sh  # TODO: the arguments that solve the task',
        },
      },
      { text: expect.stringMatching(/^TODO: the final answer/), calls: [] },
    ]);
    // The skeleton loads as the oracle, so `validate --skill-dir` gets past its "no reference solution" check.
    expect(loadSkill(dir).spec.referenceSolution).toHaveLength(6);
    expect(ids(select('all', [dir])).length).toBe(1);
    const task = select('all', [dir])[0];
    expect(task?.referenceSolution.length).toBeGreaterThan(0);
    expect(manifest._todo.join('\n')).toMatch(/reference_solution: .*fill in each command marked "# TODO"/);
  });

  it('creates a missing folder and a SKILL.md template, and the starter manifest loads', async () => {
    const dir = join(skillFolder({ 'SKILL.md': 'x' }), '..', 'brand-new', 'nested');
    let out = '';
    await skillInitCommand(dir, { force: false, stdout: { write: (s: string) => (out += s) } });
    const doc = readFileSync(join(dir, 'SKILL.md'), 'utf8');
    expect(doc).toMatch(/^# nested\n/);
    expect(doc).toContain('TODO');
    expect(out).toMatch(/created .*brand-new\/nested\n/);
    expect(out).toMatch(/created .*nested\/SKILL\.md\n/);
    expect(out).toMatch(/First write .*SKILL\.md/);
    const skill = loadSkill(dir);
    expect(skill.spec.referenceSolution).toEqual([
      { calls: [{ name: 'read_file', arguments: { path: 'skill/SKILL.md' } }] },
      { text: expect.stringMatching(/^TODO/), calls: [] },
    ]);
    // The template names no path, so nothing is proposed from it that a person did not write.
    const manifest = JSON.parse(readFileSync(join(dir, 'bench_manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ required_commands: [], expected_artifacts: [] });
    // That cannot validate yet, and the notes say what is missing.
    expect(manifest._todo.join('\n')).toMatch(/Until the manifest checks an outcome .* validate fails/);
  });

  it('never replaces an existing SKILL.md, nor writes through a SKILL.md link', async () => {
    const dir = skillFolder({ 'x.md': 'x' });
    await skillInitCommand(dir, { force: false, stdout: { write: () => true } });
    const template = readFileSync(join(dir, 'SKILL.md'), 'utf8');
    writeFileSync(join(dir, 'SKILL.md'), '# mine\n\nRun `sh scripts/go.sh`.\n');
    await skillInitCommand(dir, { force: true, stdout: { write: () => true } });
    expect(readFileSync(join(dir, 'SKILL.md'), 'utf8')).toBe('# mine\n\nRun `sh scripts/go.sh`.\n');
    expect(template).not.toBe('# mine\n\nRun `sh scripts/go.sh`.\n');
    const dangling = skillFolder({ 'x.md': 'x' });
    const target = join(dangling, '..', 'elsewhere.md');
    symlinkSync(target, join(dangling, 'SKILL.md'));
    await expect(skillInitCommand(dangling, { force: false, stdout: { write: () => true } })).rejects.toThrow(
      UsageError,
    );
    expect(existsSync(target)).toBe(false);
  });

  it('a path that is a file, or under one, is a usage error', async () => {
    const file = join(skillFolder({ 'SKILL.md': 'x' }), 'SKILL.md');
    const quiet = { force: false, stdout: { write: () => true } };
    await expect(skillInitCommand(file, quiet)).rejects.toThrow(UsageError);
    await expect(skillInitCommand(join(file, 'sub'), quiet)).rejects.toThrow(
      /cannot create the skill folder/,
    );
  });
});
