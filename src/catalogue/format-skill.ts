/** Skill folders: SKILL.md and bench_manifest.json (src/skills/), one task each, the skill mounted read-only. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MANIFEST_FILE } from '../manifest/folder.js';
import { loadSkill } from '../skills/load.js';
import { skillTask } from '../skills/skill-task.js';
import type { TaskFormat } from './format.js';

export const skillFormat: TaskFormat = {
  noun: 'a skill folder (bench_manifest.json)',
  claims: (dir) => existsSync(join(dir, MANIFEST_FILE)),
  load: (dir) => {
    const skill = loadSkill(dir);
    return { tasks: [skillTask(skill)], skills: [skill] };
  },
};
