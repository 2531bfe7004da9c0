/**
 * A skill's required read counts only when it could inform the work: shown in a turn before the
 * one that decided the first change of an expected artifact. Sent in the same reply as the
 * artifact, or after it, it is no reading of the skill.
 */
import { describe, expect, it } from 'vitest';
import { loadSkill } from '../../src/skills/load.js';
import { skillTask } from '../../src/skills/skill-task.js';
import { readFile, writeFile } from '../scoring/call-fixtures.js';
import { craftTrial, reachedTurns } from '../tasks/crafted-trial.js';
import { LEGACY_SKILL } from './skill-folder.js';

const task = skillTask(loadSkill(LEGACY_SKILL));
// What read_file returns: the skill's SKILL.md as mounted.
const skillMd = (task.mountedFiles ?? []).find((f) => f.path === 'skill/SKILL.md')?.content ?? '';
const read = { ...readFile('skill/SKILL.md'), stdout: skillMd };
const report = writeFile('output/report.txt', 'daily report\n');
const readFlag = async (turns: Parameters<typeof craftTrial>[1]) =>
  (await reachedTurns(task, craftTrial(task, turns, () => true).ctx))['read:skill/SKILL.md'];

describe('a required read of a skill', () => {
  it('counts when shown in a turn before the artifact was written', async () => {
    expect(await readFlag([[read], [report]])).toBe(1);
    expect(await readFlag([[read]])).toBe(1);
  });

  it('does not when sent in the same reply as the artifact, or after it', async () => {
    expect(await readFlag([[read, report]])).toBe(false);
    expect(await readFlag([[report], [read]])).toBe(false);
  });
});
