/**
 * Crafted trial records for flag tests: a list of turns of tool-call logs, with the file changes
 * each call made (write_file applies itself; shell calls declare theirs), turned into the
 * CheckContext the loop would build. Ground truth is a fake deciding from the final files.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isDifferentialScript } from '../../src/kit/differential-run.js';
import type { ToolCallLog, TurnLog } from '../../src/results/trial.js';
import type { ExecResult, SnapshotEntry, WorkspaceSnapshot } from '../../src/sandbox/types.js';
import { resolvePath, workspaceRelative } from '../../src/scoring/paths.js';
import { changeTurns, firstChangeTurns, type TurnSnapshot } from '../../src/scoring/snapshot-diff.js';
import { declaredWrites } from '../../src/tasks/ignored.js';
import {
  type CheckContext,
  type FlagOutcome,
  HIDDEN_DIR,
  inContainer,
  type Task,
  type TaskFile,
} from '../../src/tasks/types.js';
import { instanceValuesOf } from '../../src/tasks/variants/instances.js';
import { localGroundTruth } from '../kit/local-ground-truth.js';
import { tracedBash } from './local-trial.js';

interface Effects {
  /** Workspace-relative path -> new content. */
  write?: Record<string, string>;
  remove?: string[];
  /** Workspace-relative path -> symlink target. */
  link?: Record<string, string>;
}

/**
 * A call, or a call with the file changes it made; `traced`: a shell call run for real under the
 * host's strace on a copy of the workspace, its processes as the sandbox's trace would give them.
 */
export type CraftedCall = ToolCallLog | { call: ToolCallLog; effects?: Effects; traced?: true };

/** Decides a ground-truth command from the files as they are at the end. */
export type FakeTruth = (command: string, files: ReadonlyMap<string, string>) => boolean;

export interface CraftedTrial {
  ctx: CheckContext;
  setup: WorkspaceSnapshot;
  final: WorkspaceSnapshot;
  /** Ground-truth commands the checks ran. */
  asked: string[];
}

/** A dialogue task has no workspace: it starts empty. */
const workspaceFiles = (task: Task): readonly TaskFile[] => (inContainer(task) ? task.files : []);

export function craftTrial(
  task: Task,
  turns: readonly (readonly CraftedCall[])[],
  truth: FakeTruth,
): CraftedTrial {
  const files = new Map<string, string>(workspaceFiles(task).map((f) => [f.path, f.content]));
  const links = new Map<string, string>();
  const setup = snapshot(files, links);
  const perTurn: TurnSnapshot[] = [];
  const logs: TurnLog[] = turns.map((calls, i) => {
    const tool_calls = calls.map((c) => {
      const { call, effects = {}, traced = false } = 'call' in c ? c : { call: c };
      const shown = withOutput(call, files, traced === true);
      apply(shown, effects, files, links);
      return shown;
    });
    if (tool_calls.length > 0) perTurn.push({ turn: i + 1, snapshot: snapshot(files, links) });
    return {
      turn: i + 1,
      assistant_text: '',
      tool_calls,
      elapsed_ms: 0,
      model_latency_ms: 0,
      usage: null,
      finish_reason: null,
      retries: [],
      malformed: null,
    };
  });
  const final = snapshot(files, links);
  const asked: string[] = [];
  const hiddenFiles = new Map<string, string>(
    (inContainer(task) ? (task.hiddenFiles ?? []) : []).map((f) => [`${HIDDEN_DIR}/${f.path}`, f.content]),
  );
  const ctx: CheckContext = {
    instance: instanceValuesOf(task),
    turns: logs,
    calls: logs.flatMap((t) => t.tool_calls.map((c) => ({ ...c, turn: t.turn }))),
    setupSnapshot: setup,
    finalSnapshot: final,
    setupFiles: new Map(
      [...(inContainer(task) ? task.mountedFiles : []), ...workspaceFiles(task)].map((f) => [
        f.path,
        f.content,
      ]),
    ),
    firstChangeTurn: firstChangeTurns(setup, perTurn),
    changeTurns: changeTurns(setup, perTurn),
    finalAnswer: null,
    declaredWrites: inContainer(task) ? declaredWrites(task) : { allowed: [], ignored: [] },
    groundTruth: {
      async run(command) {
        asked.push(command);
        // A differential run compares two modules' outcomes, which no yes/no can fake: it runs for real.
        if (isDifferentialScript(command)) return differentialRun(command, files, hiddenFiles);
        // A check reading one of the task's hidden files (its own settings) gets it as placed.
        const hidden = hiddenFiles.get(command.replace(/^cat /, ''));
        const ok = hidden !== undefined || truth(command, files);
        return {
          exitCode: ok ? 0 : 1,
          stdout: hidden ?? '',
          stderr: '',
          stdoutCutBytes: 0,
          stderrCutBytes: 0,
          timedOut: false,
          elapsedMs: 0,
        };
      },
      readFile: async (path) => files.get(path) ?? null,
    },
  };
  return { ctx, setup, final, asked };
}

/** Differential runs by what decides them (the command and the files), since many trials end alike. */
const differentialRuns = new Map<string, Promise<ExecResult>>();

function differentialRun(
  command: string,
  files: ReadonlyMap<string, string>,
  hidden: ReadonlyMap<string, string>,
): Promise<ExecResult> {
  const key = createHash('sha256')
    .update(JSON.stringify([command, [...files], [...hidden]]))
    .digest('hex');
  let pending = differentialRuns.get(key);
  if (pending === undefined) {
    const truth = localGroundTruth(
      Object.fromEntries(files),
      Object.fromEntries([...hidden].map(([path, content]) => [path.slice(HIDDEN_DIR.length + 1), content])),
    );
    pending = truth.run(command).finally(() => truth.cleanup());
    differentialRuns.set(key, pending);
  }
  return pending;
}

export async function evaluate(task: Task, ctx: CheckContext): Promise<Record<string, FlagOutcome>> {
  const out: Record<string, FlagOutcome> = {};
  for (const flag of task.flags) out[flag.id] = await flag.check(ctx);
  return out;
}

/** Flag id -> reached turn, 'post' for a turn-less reach, or false. */
export async function reachedTurns(
  task: Task,
  ctx: CheckContext,
): Promise<Record<string, number | 'post' | false>> {
  const out: Record<string, number | 'post' | false> = {};
  for (const [id, o] of Object.entries(await evaluate(task, ctx)))
    out[id] = o.reached ? (o.turn ?? 'post') : false;
  return out;
}

function apply(
  call: ToolCallLog,
  effects: Effects,
  files: Map<string, string>,
  links: Map<string, string>,
): void {
  if (call.name === 'write_file' && call.exit_code === 0 && call.arguments !== null) {
    const rel = workspaceRelative(resolvePath(call.cwd, String(call.arguments.path)));
    if (rel !== null) files.set(rel, String(call.arguments.content));
  }
  for (const [path, content] of Object.entries(effects.write ?? {})) files.set(path, content);
  for (const path of effects.remove ?? []) files.delete(path);
  for (const [path, target] of Object.entries(effects.link ?? {})) links.set(path, target);
}

function snapshot(files: ReadonlyMap<string, string>, links: ReadonlyMap<string, string>): WorkspaceSnapshot {
  const out = new Map<string, SnapshotEntry>();
  const addParents = (path: string): void => {
    const parts = path.split('/');
    for (let n = 1; n < parts.length; n++) out.set(parts.slice(0, n).join('/'), { kind: 'dir', mode: 0o755 });
  };
  for (const [path, content] of files) {
    addParents(path);
    const sha256 = createHash('sha256').update(content).digest('hex');
    out.set(path, { kind: 'file', sha256, size: Buffer.byteLength(content), mode: 0o644 });
  }
  for (const [path, target] of links) {
    addParents(path);
    out.set(path, { kind: 'symlink', target });
  }
  return out;
}

/**
 * Reads are judged on what the model was shown, so a crafted call without output gets the output it
 * would have had: read_file the file's content, a command its real stdout and stderr from bash run
 * on a copy of the workspace (the crafted exit code stays). A call that sets output keeps it.
 */
function withOutput(call: ToolCallLog, files: ReadonlyMap<string, string>, trace: boolean): ToolCallLog {
  if (!trace && (call.stdout !== '' || call.stderr !== '' || call.invalid !== null)) return call;
  if (call.name === 'read_file') {
    const rel = workspaceRelative(resolvePath(call.cwd, String(call.arguments?.path)));
    const content = rel === null ? undefined : files.get(rel);
    return call.exit_code === 0 && content !== undefined ? { ...call, stdout: content } : call;
  }
  if (call.name !== 'execute_command' || typeof call.arguments?.command !== 'string') return call;
  const root = mkdtempSync(join(tmpdir(), 'crafted-ws-'));
  try {
    for (const [path, content] of files) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), content);
    }
    const cwd = call.cwd.replace(/^\/workspace/, root);
    mkdirSync(cwd, { recursive: true });
    if (trace) {
      // The temporary copy stands for /workspace: tracedBash names the folder it ran in so.
      const start = cwd === root ? '' : `cd '${call.cwd}' && `;
      const r = tracedBash(`${start}${call.arguments.command}`, root, (s) =>
        s.replaceAll('/workspace', root),
      );
      return { ...call, exit_code: r.exitCode, stdout: r.stdout, stderr: r.stderr, ...r.traced };
    }
    const command = call.arguments.command.replaceAll('/workspace', root);
    const r = spawnBash(command, cwd);
    const back = (t: string) => t.replaceAll(root, '/workspace');
    return { ...call, stdout: back(r.stdout), stderr: back(r.stderr) };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function spawnBash(command: string, cwd: string): { stdout: string; stderr: string } {
  try {
    const stdout = execFileSync('bash', ['-c', command], {
      cwd,
      timeout: 20_000,
      encoding: 'utf8',
      stdio: 'pipe',
    });
    return { stdout, stderr: '' };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    return { stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}
