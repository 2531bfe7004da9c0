/**
 * README.md of an exported task: where it comes from, what its test.sh judges, and, honestly, what
 * it does not: every flag left out and why, since a Harbor reward of 1 here is a weaker verdict
 * than an agent-bench pass of the same task.
 */
import type { SandboxTask } from '../../tasks/types.js';
import type { CheckExport, ExportedCheck } from './checks.js';

export function exportReadme(o: {
  task: SandboxTask;
  taskVersion: string;
  exported: CheckExport;
  protectsFiles: boolean;
}): string {
  const { task, exported } = o;
  const judged = [
    ...exported.checks.map((c) => `- \`${c.flag}\`: ${what(c)}`),
    ...(o.protectsFiles
      ? [
          "- `protected_files`: the starting files outside the task's allowed writes are unchanged (`tests/protected.sha256`)",
        ]
      : []),
  ];
  const left = exported.leftOut.map((l) => `- \`${l.flag}\`: ${l.why}`);
  return [
    `# ${task.id} (from agent-bench)`,
    '',
    `${task.meta.description}`,
    '',
    `Exported from agent-bench task \`${task.id}\` (version ${o.taskVersion}) by`,
    "`agent-bench task export --format harbor`. The agent starts in `/workspace` with the task's files;",
    "`instruction.md` is the prompt exactly as agent-bench gives it (it names agent-bench's tools:",
    '`execute_command`, `read_file`, `write_file`; any shell-capable agent can do the same).',
    '',
    '## What tests/test.sh judges',
    '',
    "Harbor's verifier sees only the files the agent left, so the export runs the task's outcome",
    'checks on them. The reward is 1 when every one holds, else 0:',
    '',
    ...judged,
    '',
    '## What it does not judge',
    '',
    "These flags are judged in agent-bench on the trial's trace (what ran, what the model was shown,",
    'and in which order) or by TypeScript over it, which Harbor never records for the verifier, so a',
    'Harbor reward of 1 here is a weaker verdict than an agent-bench pass:',
    '',
    ...(left.length === 0 ? ['- nothing: every flag of this task is an outcome check'] : left),
    '- files created outside the allowed writes (agent-bench counts them as tamper)',
    '',
    '## Building',
    '',
    '`environment/Dockerfile` builds on a public base with the tools the task needs. Offline,',
    "`agent-bench validate --tasks-dir <this folder> --base-image <agent-bench's sandbox image>` builds",
    'it on the sandbox image instead, which has them all (the installs are skipped).',
    '',
  ].join('\n');
}

function what(c: ExportedCheck): string {
  switch (c.kind) {
    case 'pytest':
    case 'node:test':
      return `${c.kind} on ${c.targets.join(', ')} passes, its own summary counting ${c.tests === undefined ? 'only passes' : `exactly ${c.tests} tests, all passed`}`;
    case 'command':
      return `\`${c.command}\` in /workspace exits ${c.exitCode}`;
    case 'artifact':
      return `${c.file} is a regular file${c.contains.length + c.notContains.length > 0 || c.minBytes !== undefined ? ' whose content holds its checks' : ''}`;
  }
}
