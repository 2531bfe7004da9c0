/** `skill init`: bench your own skills. */
import type { Command } from 'commander';

export function registerSkill(program: Command): void {
  const skill = program.command('skill').description('bench your own skills');
  skill
    .command('init')
    .argument('<dir>', 'the skill folder (with SKILL.md)')
    .description(
      'write a starter bench_manifest.json for a skill folder, with TODOs where a person must decide',
    )
    .option('--force', 'replace an existing bench_manifest.json', false)
    .action(async (dir: string, opts) => {
      const { skillInitCommand } = await import('../commands/skill.js');
      await skillInitCommand(dir, opts);
    });
}
