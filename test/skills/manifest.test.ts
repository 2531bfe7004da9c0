/**
 * bench_manifest.json: a manifest in the published format loads unchanged, and a broken one is
 * refused with every problem at once, each with its path, as a usage error (exit 2).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadSkill } from '../../src/skills/load.js';
import { skillTask } from '../../src/skills/skill-task.js';
import { UsageError } from '../../src/util/errors.js';
import { LEGACY_SKILL, removeSkillFolders, skillFolder } from './skill-folder.js';

afterEach(removeSkillFolders);

function problemsOf(dir: string): string[] {
  try {
    loadSkill(dir);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).exitCode).toBe(2);
    return (err as UsageError).message
      .split('\n')
      .slice(1)
      .map((l) => l.trim());
  }
  throw new Error('the skill loaded');
}

describe('a published-format manifest', () => {
  it('loads unchanged: its flags, prompt, stub, writes and defaults', () => {
    const skill = loadSkill(LEGACY_SKILL);
    const task = skillTask(skill);
    expect(task.id).toBe('skill_run_v1_report');
    expect(task.flags.map((f) => f.id)).toEqual([
      'read:skill/SKILL.md',
      'cmd:0',
      'artifact:output/report.txt',
      'no_tool_hallucination',
      'step_completion',
    ]);
    expect(task.flags.map((f) => f.kind)).toEqual(['process', 'process', 'outcome', 'process', 'process']);
    expect(task.maxTurns).toBe(10);
    expect(task.allowedWrites).toEqual(['output/*']);
    // No stub log any more: the trace is the stubs' record, so a file of that name is an ordinary write.
    expect(task.ignored).not.toContain('/.stub_calls.log');
    expect(task.prompt).toMatch(
      /^A skill is installed at \/workspace\/skill\/ \(read-only\)\. Your goal: Generate the daily report/,
    );
    expect(skill.spec.stubs).toMatchObject([
      {
        script: 'scripts/make_report.sh',
        language: 'sh',
        outputs: [{ path: 'output/report.txt', arg: null }],
        exitCode: 0,
      },
    ]);
    expect(skill.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(task.source?.skill).toBe(skill.digest);
  });

  it('defaults the id from the folder and the goal, as published', () => {
    const dir = skillFolder({ 'SKILL.md': '# x\n' }, {}, { name: 'landing-page' });
    const { spec } = loadSkill(dir);
    expect(spec.id).toBe('skill_run_v1_landing_page');
    expect(spec.goal).toBe('Execute the skill as documented.');
    expect(spec.maxTurns).toBe(20);
  });
});

describe('a broken manifest', () => {
  it('reports every schema problem at once, each with its path', () => {
    const dir = skillFolder(
      { 'SKILL.md': '# x\n', 'scripts/real.sh': 'echo\n' },
      {
        _comment: 'notes are fine',
        goal: 'Do it.',
        max_turns: 0,
        required_reads: ['skill/NOPE.md', '../etc/passwd'],
        required_commands: [
          'ok\\.sh',
          '(unclosed',
          { pattern: 'a', recheck: true },
          { pattern: 'a', any_of: ['b'] },
        ],
        expected_artifacts: ['skill/out.txt'],
        artifact_checks: [{ file: 'out.json', json: { schema: { type: 'object', oneOf: [] } } }],
        prompt_file: 'PROMPT.md',
        stubs: {
          'scripts/x.sh': { outputs: ['output/x.png'] },
          'scripts/real.sh': { outputs: [{ path: 'a', arg: '--out' }], exit_code: 300 },
        },
        reference_solution: [
          { name: 'write_file', arguments: { path: 'a', content: { $file: '.bench/missing.html' } } },
        ],
        required_read: ['typo'],
      },
    );
    const problems = problemsOf(dir);
    const expected = [
      'max_turns: Too small',
      'required_reads[0]: file not found in skill folder',
      'required_reads[1]: must be a relative path inside its folder',
      'required_commands[1]: invalid regular expression',
      'required_commands[2].recheck: needs exit_code',
      'required_commands[3]: give exactly one of pattern and any_of',
      'expected_artifacts[0]: is inside skill/, which is mounted read-only',
      'artifact_checks[0].json.schema: the schema for out.json does not compile: schema is invalid: data/oneOf must NOT have fewer than 1 items',
      'prompt_file: file not found in skill folder',
      'stubs["scripts/x.sh"]: file not found in skill folder',
      'stubs["scripts/real.sh"].outputs[0]: give exactly one of path and arg',
      'stubs["scripts/real.sh"].exit_code: Too big',
      'reference_solution[0].arguments.content["$file"]: file not found in skill folder',
      'required_read: unknown key',
    ];
    for (const e of expected)
      expect(
        problems.some((p) => p.startsWith(e)),
        `${e}\nin:\n${problems.join('\n')}`,
      ).toBe(true);
    expect(problems).toHaveLength(expected.length);
  });

  it('reports the problems only visible across keys, all at once', () => {
    const dir = skillFolder(
      { 'SKILL.md': '# x\n', 'scripts/gen.rb': 'puts 1\n' },
      {
        artifact_checks: [
          { file: 'a.txt', id: 'same', contains: ['x'] },
          { file: 'b.txt', id: 'same', contains: ['y'] },
        ],
        stubs: { 'scripts/gen.rb': {} },
        required_commands: ['gen\\.rb'],
        lures: [{ id: 'l', description: 'd', script: [], expect: { unreached: ['cmd:0', 'cmd:9'] } }],
      },
    );
    const problems = problemsOf(dir);
    expect(problems).toEqual([
      'stubs["scripts/gen.rb"]: only shell, Python and Node scripts can be stubbed',
      expect.stringMatching(
        /^lures\[0\]\.expect\.unreached\[1\]: no flag "cmd:9"; the flags are read:|^lures/,
      ),
    ]);
  });

  it('checks alternates and cheats like lures: flags that exist, ids unique per kind', () => {
    const dir = skillFolder(
      { 'SKILL.md': '# x\n', 'go.sh': 'echo\n' },
      {
        required_commands: ['go\\.sh'],
        alternates: [
          { id: 'a', description: 'd', script: [] },
          { id: 'a', description: 'd', script: [] },
        ],
        cheats: [
          { id: 'c', description: 'd', script: [], expect: { unreached: ['cmd:7'] } },
          { id: 'c2', description: 'd', script: [], expect: { unreached: [] } },
        ],
      },
    );
    expect(problemsOf(dir)).toEqual([
      'cheats[1].expect.unreached: Too small: expected array to have >=1 items',
    ]);
    const fixed = skillFolder(
      { 'SKILL.md': '# x\n', 'go.sh': 'echo\n' },
      {
        required_commands: ['go\\.sh'],
        alternates: [
          { id: 'a', description: 'd', script: [] },
          { id: 'a', description: 'd', script: [] },
        ],
        cheats: [{ id: 'c', description: 'd', script: [], expect: { unreached: ['cmd:7'] } }],
      },
    );
    expect(problemsOf(fixed)).toEqual([
      expect.stringMatching(/^cheats\[0\]\.expect\.unreached\[0\]: no flag "cmd:7"/),
      'alternates[1].id: another of alternates has the id "a"',
    ]);
  });

  it("refuses a cheat's reached flags that do not exist or that it also names unreached", () => {
    const dir = skillFolder(
      { 'SKILL.md': '# x\n', 'go.sh': 'echo\n' },
      {
        required_commands: ['go\\.sh'],
        cheats: [
          {
            id: 'c',
            description: 'd',
            script: [],
            expect: { unreached: ['cmd:0'], reached: ['cmd:0', 'cmd:7'] },
          },
        ],
      },
    );
    expect(problemsOf(dir)).toEqual([
      'cheats[0].expect.reached[0]: "cmd:0" is both unreached and reached',
      expect.stringMatching(/^cheats\[0\]\.expect\.reached\[1\]: no flag "cmd:7"/),
    ]);
  });

  it('passes alternates and cheats to the task, with their $file arguments read', () => {
    const dir = skillFolder(
      { 'SKILL.md': '# x\n', 'go.sh': 'echo\n', '.bench/page.html': '<p>x</p>\n' },
      {
        required_commands: ['go\\.sh'],
        alternates: [
          {
            id: 'abs',
            description: 'absolute path',
            script: [
              { name: 'write_file', arguments: { path: 'o.html', content: { $file: '.bench/page.html' } } },
            ],
          },
        ],
        cheats: [
          {
            id: 'syntax',
            description: 'sh -n',
            script: [{ name: 'execute_command', arguments: { command: 'sh -n skill/go.sh' } }],
            expect: { unreached: ['cmd:0'] },
          },
        ],
      },
    );
    const task = skillTask(loadSkill(dir));
    expect(task.alternates).toEqual([
      {
        id: 'abs',
        description: 'absolute path',
        script: [{ calls: [{ name: 'write_file', arguments: { path: 'o.html', content: '<p>x</p>\n' } }] }],
      },
    ]);
    expect(task.cheats).toMatchObject([{ id: 'syntax', expect: { unreached: ['cmd:0'] } }]);
    const noSkill = skillTask(loadSkill(dir), { withSkill: false });
    expect([noSkill.alternates, noSkill.cheats]).toEqual([[], []]);
  });

  it('refuses an id that is no slug, since it names files in the results folder', () => {
    for (const id of [
      '../../x',
      'a/b',
      '/etc/cron.d/x',
      '..',
      '.hidden',
      '-rf',
      'a b',
      'x'.repeat(65),
      'a\u0000b',
    ]) {
      expect(problemsOf(skillFolder({ 'SKILL.md': '# x\n' }, { id })), JSON.stringify(id)).toEqual([
        'id: must be 1-64 letters, digits or _.-, starting with a letter or digit (it names files in the results folder)',
      ]);
    }
    expect(loadSkill(skillFolder({ 'SKILL.md': '# x\n' }, { id: 'my.skill-v2_x' })).spec.id).toBe(
      'my.skill-v2_x',
    );
  });

  it('reports a folder without SKILL.md or manifest, and a manifest that is not JSON', () => {
    expect(problemsOf(skillFolder({ 'README.md': 'x' }))).toEqual([
      'SKILL.md: not found in the skill folder',
      'bench_manifest.json: not found (write a starter one with `agent-bench skill init DIR`)',
    ]);
    const dir = skillFolder({ 'SKILL.md': '# x\n', 'bench_manifest.json': '{"goal": ' });
    expect(problemsOf(dir)).toEqual([expect.stringMatching(/^bench_manifest\.json: not valid JSON/)]);
    expect(problemsOf('/nonexistent/skill')).toEqual(['/nonexistent/skill does not exist']);
  });
});
