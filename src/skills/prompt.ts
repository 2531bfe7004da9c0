/**
 * The prompt of a skill task. With the skill: where it is, the goal, and to follow its docs (plus
 * the prompt_file's text, as published). Without it (`--skill-ab`): the same goal and rules, minus
 * every pointer to the skill.
 */
import type { SkillSpec } from './spec.js';

const TOOLS =
  'You have three tools: execute_command (runs a bash command; the shell starts in /workspace), read_file and write_file.';

export function skillPrompt(spec: SkillSpec, withSkill: boolean): string {
  const rules = writeRules(spec.allowedWrites);
  if (!withSkill)
    return `Your goal: ${spec.goalWithoutSkill}\n\n${TOOLS}\n\n${rules} When you are done, reply with a short summary of what you did.`;
  const head = `A skill is installed at /workspace/skill/ (read-only). Your goal: ${spec.goal}

Read the skill's documentation (start with /workspace/skill/SKILL.md) and follow its steps exactly. ${TOOLS}

${rules} When you are done, reply with a short summary of what you did.`;
  const file = spec.promptFile;
  return file === null ? head : `${head}\n\n--- ${file.name} ---\n${file.text}`;
}

function writeRules(allowed: readonly string[]): string {
  const where =
    allowed.length === 0 ? 'nothing in /workspace' : allowed.map((g) => g.replace(/^\//, '')).join(', ');
  return `Work in /workspace. Create or change only these paths there: ${where}. Use /tmp for scratch files.`;
}
