/**
 * A native task as a Harbor task folder (`agent-bench task export --format harbor`): instruction.md
 * as the model reads it, task.toml, environment/ (a Dockerfile on a public base and the starting
 * workspace), tests/ (test.sh running the outcome checks, the hidden files, the protected files'
 * hashes) and solution/ (the reference solution as solve.sh). Pure: the folder is returned as
 * files, and the command writes them. A task none of whose flags Harbor's verifier can judge is
 * refused with its reason in one line.
 */
import { createHash } from 'node:crypto';
import { stringify } from 'smol-toml';
import { DEFAULT_LIMITS } from '../../sandbox/index.js';
import { matchesAnyWorkspaceGlob } from '../../scoring/glob.js';
import { ignoredPaths } from '../../tasks/ignored.js';
import type { SandboxTask } from '../../tasks/types.js';
import { UsageError } from '../../util/errors.js';
import type { TaskManifest } from '../native/manifest.js';
import { type CheckExport, exportChecks, type LeftOut } from './checks.js';
import { exportedDockerfile, needsOf, WORKSPACE_CONTEXT } from './dockerfile.js';
import { exportReadme } from './readme.js';
import { solveScript } from './solve-script.js';
import { PROTECTED_LIST, testScript } from './test-script.js';

interface ExportedFile {
  content: string;
  /** 0o644 or 0o755. */
  mode: number;
}

export interface HarborExport {
  /** Path under the export folder -> file. */
  files: Map<string, ExportedFile>;
  exported: CheckExport;
}

/** Harbor's scaffold default; a native task is bounded by its turns instead (kept in metadata). */
const AGENT_TIMEOUT_SEC = 600;

export function harborExport(task: SandboxTask, manifest: TaskManifest, taskVersion: string): HarborExport {
  const exported = exportChecks(manifest.flags);
  if (exported.checks.length === 0) throw new UsageError(nothingToJudge(task.id, exported.leftOut));
  const files = new Map<string, ExportedFile>();
  const add = (path: string, content: string, mode = 0o644): void => {
    files.set(path, { content, mode });
  };
  add('instruction.md', `${task.prompt}\n`);
  add('task.toml', taskToml(task, taskVersion));
  for (const f of task.files) add(`environment/${WORKSPACE_CONTEXT}/${f.path}`, f.content, f.mode ?? 0o644);
  const solve = solveScript(task.id, task.referenceSolution);
  const commands = [
    ...task.referenceSolution.flatMap((t) => t.calls.flatMap((c) => stringArgs(c.arguments))),
    ...exported.checks.flatMap((c) => (c.kind === 'command' ? [c.command] : [])),
    ...(task.setupCommands ?? []),
  ];
  const runners = exported.checks.flatMap((c) =>
    c.kind === 'pytest' ? ['pytest'] : c.kind === 'node:test' ? ['node'] : [],
  );
  add(
    'environment/Dockerfile',
    exportedDockerfile({
      taskId: task.id,
      needs: needsOf(
        [...commands, ...runners],
        [...task.files, ...(task.hiddenFiles ?? [])].map((f) => f.path),
      ),
      hasFiles: task.files.length > 0,
      setupCommands: task.setupCommands ?? [],
    }),
  );
  for (const f of task.hiddenFiles ?? []) add(`tests/hidden/${f.path}`, f.content, f.mode ?? 0o644);
  const protectedList = protectedHashes(task);
  if (protectedList !== '') add(`tests/${PROTECTED_LIST}`, protectedList);
  add(
    'tests/test.sh',
    testScript({
      taskId: task.id,
      taskVersion,
      checks: exported.checks,
      protectsFiles: protectedList !== '',
    }),
    0o755,
  );
  add('solution/solve.sh', solve.script, 0o755);
  for (const [path, content] of solve.files) add(`solution/${path}`, content);
  add('README.md', exportReadme({ task, taskVersion, exported, protectsFiles: protectedList !== '' }));
  return { files, exported };
}

function nothingToJudge(id: string, leftOut: readonly LeftOut[]): string {
  const kinds = [
    ...new Set(leftOut.map((l) => (/flags\.ts/.test(l.why) ? 'flags.ts code' : 'trace evidence'))),
  ];
  return `${id}: not exported: Harbor's verifier sees only the final files, and every flag of this task is judged on ${kinds.join(' or ')} (${leftOut.map((l) => l.flag).join(', ')})`;
}

/** The string arguments of a scripted call (commands, written text): what hints at the tools it needs. */
function stringArgs(args: Record<string, unknown>): string[] {
  return typeof args.command === 'string' ? [args.command] : [];
}

/**
 * sha256sum's list of the starting files the agent may not change (outside allowed_writes and the
 * ignored caches): agent-bench's tamper detection as far as the final files show it. A file made
 * outside allowed_writes is not caught here (README.md says so).
 */
function protectedHashes(task: SandboxTask): string {
  const ignored = ignoredPaths(task);
  return task.files
    .filter(
      (f) =>
        !matchesAnyWorkspaceGlob(task.allowedWrites, f.path) && !matchesAnyWorkspaceGlob(ignored, f.path),
    )
    .map((f) => `${createHash('sha256').update(f.content, 'utf8').digest('hex')}  ${f.path}\n`)
    .join('');
}

function taskToml(task: SandboxTask, taskVersion: string): string {
  const header = [
    `# agent-bench task ${task.id}, exported by \`agent-bench task export --format harbor\`:`,
    '# tests/test.sh runs its outcome checks only (README.md lists what is left out and why).',
    '',
  ].join('\n');
  return `${header}${stringify({
    version: '1.0',
    metadata: {
      author_name: 'agent-bench',
      difficulty: task.meta.difficulty,
      category: task.meta.domain,
      tags: ['agent-bench'],
      description: task.meta.description,
      agent_bench_task: task.id,
      agent_bench_task_version: taskVersion,
      agent_bench_max_turns: task.maxTurns,
    },
    verifier: { timeout_sec: 600 },
    agent: { timeout_sec: AGENT_TIMEOUT_SEC },
    environment: {
      build_timeout_sec: 600,
      cpus: DEFAULT_LIMITS.cpus,
      memory_mb: DEFAULT_LIMITS.memory_mb,
      // agent-bench's tasks are built to run without a network.
      allow_internet: false,
    },
  })}\n`;
}
