/**
 * Every bundled skill is sound, proven in the real sandbox through validateTasks: its reference
 * solution passes, doing nothing scores 0, and each lure (its own and the automatic ones) is caught.
 * A user's skill is validated the same way from --skill-dir, and needs a reference solution.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { validateCommand } from '../../src/cli/commands/validate.js';
import { skillTask } from '../../src/skills/skill-task.js';
import type { Task } from '../../src/tasks/types.js';
import { UsageError } from '../../src/util/errors.js';
import { validateTasks } from '../../src/validate/validate-tasks.js';
import { IMAGE_TIMEOUT_MS, openSandbox } from '../sandbox/fixture.js';
import { LEGACY_SKILL, removeSkillFolders, skillFolder } from './skill-folder.js';

afterAll(removeSkillFolders);

const open = (task: Task) => openSandbox(task.kind === 'skill' ? { mounts: task.environment.mounts } : {});

// The bundled skills are proven with the whole suite (test/proofs/validate.test.ts, which also
// asks for their automatic lures), through the proof cache: not a second time here.
describe('bundled skills', () => {
  it('include the four the issue asks for, tool_mirage_v1 among them, the heavy one last', async () => {
    const { allTasks } = await import('../../src/catalogue/built-in.js');
    const ids = allTasks().map((t) => t.id);
    const skills = [
      'tool_mirage_v1',
      'skill_run_v1_landing_page',
      'skill_run_v1_report',
      'skill_run_v1_imitate_dashboard',
    ];
    expect(ids.filter((id) => skills.includes(id))).toEqual(skills);
    expect(ids.at(-1)).toBe('skill_run_v1_imitate_dashboard');
  });
});

describe('a user skill', () => {
  it(
    'is validated from its folder: a wrong reference solution fails its oracle',
    async () => {
      const dir = skillFolder(
        {
          'SKILL.md': 'Run `sh /workspace/skill/go.sh`.\n',
          'go.sh': 'mkdir -p out && echo done > out/r.txt\n',
        },
        {
          goal: 'Run the skill.',
          required_commands: [{ pattern: 'go\\.sh', exit_code: 0 }],
          expected_artifacts: ['out/r.txt'],
          artifact_checks: [{ file: 'out/r.txt', contains: ['done'] }],
          reference_solution: [{ name: 'execute_command', arguments: { command: 'sh skill/go.sh' } }],
        },
      );
      const { loadSkill } = await import('../../src/skills/load.js');
      const good = await validateTasks([skillTask(loadSkill(dir))], { openSandbox: open });
      expect(good.filter((r) => r.kind !== 'passed')).toEqual([]);
      const wrong = skillFolder(
        { 'SKILL.md': 'x\n', 'go.sh': 'echo nothing\n' },
        {
          required_commands: ['go\\.sh'],
          expected_artifacts: ['out/r.txt'],
          reference_solution: [{ name: 'execute_command', arguments: { command: 'sh skill/go.sh' } }],
        },
      );
      const rows = await validateTasks([skillTask(loadSkill(wrong))], { openSandbox: open });
      expect(rows[0]).toMatchObject({
        run: 'oracle',
        kind: 'failed',
        detail: expect.stringMatching(/artifact:out\/r\.txt/),
      });
    },
    IMAGE_TIMEOUT_MS,
  );

  it(
    'fails loudly, not quietly, in a sandbox opened without its mount',
    async () => {
      const { loadSkill } = await import('../../src/skills/load.js');
      const task = skillTask(loadSkill(LEGACY_SKILL));
      const rows = await validateTasks([{ ...task, referenceSolution: [] }], {
        openSandbox: () => openSandbox(),
      });
      expect(rows[0]).toMatchObject({
        kind: 'error',
        detail: expect.stringMatching(/harness error: .*no skill mounted at \/workspace\/skill/),
      });
    },
    IMAGE_TIMEOUT_MS,
  );

  it('needs a reference solution to be validated (a usage error, before any container)', async () => {
    await expect(validateCommand({ tasks: 'all', skillDir: [LEGACY_SKILL] })).rejects.toThrow(UsageError);
    await expect(validateCommand({ tasks: 'all', skillDir: [LEGACY_SKILL] })).rejects.toThrow(
      /no reference solution/,
    );
  });
});
