/**
 * Runs a scripted trial for real against a temporary directory with the local python3, standing in
 * for the Docker sandbox: /workspace, /harness, the hidden files' folder and the checker's home in
 * commands and hidden files are mapped to temp folders. For proving fixtures and reference solutions, not the sandbox's isolation.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { processLogs } from '../../src/agent/tools/process-log.js';
import type { ScriptedCall, ScriptedTurn } from '../../src/models/scripted.js';
import type { ToolCallLog, TurnLog } from '../../src/results/trial.js';
import { parseTrace } from '../../src/sandbox/trace/parse.js';
import {
  CHECKER_HOME,
  type ExecResult,
  type ProgramRun,
  type SnapshotEntry,
  type WorkspaceSnapshot,
} from '../../src/sandbox/types.js';
import { resolvePath, workspaceRelative } from '../../src/scoring/paths.js';
import { changeTurns, firstChangeTurns, type TurnSnapshot } from '../../src/scoring/snapshot-diff.js';
import { declaredWrites } from '../../src/tasks/ignored.js';
import { type CheckContext, HIDDEN_DIR, type WorkspaceTask } from '../../src/tasks/types.js';
import { instanceValuesOf } from '../../src/tasks/variants/instances.js';
import { wrapperTraceOptions } from '../sandbox/trace-options.js';

/** python3 >= 3.11 (for -P) with pytest, as in the sandbox image. */
export function localPythonReady(): boolean {
  return spawnSync('python3', ['-P', '-c', 'import pytest'], { stdio: 'ignore' }).status === 0;
}

export interface LocalTrial {
  ctx: CheckContext;
  setup: WorkspaceSnapshot;
  final: WorkspaceSnapshot;
  cleanup(): void;
}

export function runLocally(task: WorkspaceTask, script: readonly ScriptedTurn[]): LocalTrial {
  const root = mkdtempSync(join(tmpdir(), `${task.id}-`));
  const ws = join(root, 'workspace');
  const harness = join(root, 'harness');
  // Hidden files sit next to the staged copy (HIDDEN_DIR) in the sandbox; here, in the harness folder.
  // /tmp is the trial's own too: a script's helper files there must not meet another test's.
  const map = (s: string): string =>
    s
      .replaceAll('/tmp/', `${root}/tmp/`)
      .replaceAll('/workspace', ws)
      .replaceAll('/harness', harness)
      .replaceAll(HIDDEN_DIR, harness)
      .replaceAll(CHECKER_HOME, join(root, 'checker'));
  mkdirSync(ws, { recursive: true });
  mkdirSync(join(root, 'tmp'), { recursive: true });
  // Read-only mounts (a skill at /workspace/skill) become a plain copy: not read-only, but there.
  for (const m of task.environment.mounts)
    cpSync(m.hostPath, join(ws, relative('/workspace', m.containerPath)), { recursive: true });
  for (const f of task.files) put(join(ws, f.path), f.content, f.mode);
  for (const c of task.setupCommands ?? []) bash(c, ws, map);
  const setup = snapshot(ws);
  const turns: TurnLog[] = [];
  const perTurn: TurnSnapshot[] = [];
  script.forEach((scripted, i) => {
    const tool_calls = scripted.calls.map((c) => execute(c, ws, map));
    turns.push({
      turn: i + 1,
      assistant_text: scripted.text ?? '',
      tool_calls,
      elapsed_ms: 0,
      model_latency_ms: 0,
      usage: null,
      finish_reason: null,
      retries: [],
      malformed: null,
    });
    if (tool_calls.length > 0) perTurn.push({ turn: i + 1, snapshot: snapshot(ws) });
  });
  const final = snapshot(ws);
  for (const f of task.hiddenFiles ?? []) put(join(harness, f.path), map(f.content), f.mode);
  const ctx: CheckContext = {
    instance: instanceValuesOf(task),
    turns,
    calls: turns.flatMap((t) => t.tool_calls.map((c) => ({ ...c, turn: t.turn }))),
    setupSnapshot: setup,
    finalSnapshot: final,
    setupFiles: new Map([...task.mountedFiles, ...task.files].map((f) => [f.path, f.content])),
    firstChangeTurn: firstChangeTurns(setup, perTurn),
    changeTurns: changeTurns(setup, perTurn),
    finalAnswer: script.at(-1)?.text ?? null,
    declaredWrites: declaredWrites(task),
    groundTruth: {
      run: async (command) => bash(command, ws, map),
      readFile: async (path) => {
        try {
          return readFileSync(join(ws, path), 'utf8');
        } catch {
          return null;
        }
      },
    },
  };
  return { ctx, setup, final, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

function put(path: string, content: string, mode = 0o644): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content, { mode });
}

function bash(command: string, cwd: string, map: (s: string) => string): ExecResult {
  const r = spawnSync('bash', ['-c', map(command)], {
    cwd,
    encoding: 'utf8',
    // A mutation run is six test runs; on a loaded machine, a minute is not enough for them.
    timeout: 180_000,
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
  });
  return {
    exitCode: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    stdoutCutBytes: 0,
    stderrCutBytes: 0,
    timedOut: r.error !== undefined,
    elapsedMs: 0,
  };
}

function execute(call: ScriptedCall, ws: string, map: (s: string) => string): ToolCallLog {
  const args = call.arguments;
  const onDisk = (p: unknown): string => {
    const abs = resolvePath('/workspace', String(p));
    const rel = workspaceRelative(abs);
    // Anywhere else (/tmp) is the trial's own folder for that place (map).
    return rel === null ? map(abs) : join(ws, rel);
  };
  let exit_code = 0;
  let stdout = '';
  let stderr = '';
  let traced: Pick<ToolCallLog, 'processes' | 'trace_truncated'> = {};
  if (call.name === 'execute_command') {
    const r = tracedBash(String(args.command), ws, map);
    exit_code = r.exitCode ?? 1;
    stdout = r.stdout;
    stderr = r.stderr;
    traced = r.traced;
  } else if (call.name === 'read_file') {
    try {
      stdout = readFileSync(onDisk(args.path), 'utf8');
    } catch (err) {
      exit_code = 1;
      stderr = String(err);
    }
  } else if (call.name === 'write_file') put(onDisk(args.path), String(args.content));
  return {
    name: call.name,
    arguments: args,
    raw_arguments: JSON.stringify(args),
    source: 'native',
    invalid: null,
    cwd: '/workspace',
    exit_code,
    stdout,
    stderr,
    truncated: false,
    timed_out: false,
    elapsed_ms: 0,
    ...traced,
  };
}

/**
 * The agent's command under the host's strace, parsed by the sandbox's own parser: the trace is
 * what the checks judge test runs and program runs by. Paths come back as the sandbox would name
 * them (/workspace, not the temporary folder).
 */
export function tracedBash(
  command: string,
  ws: string,
  map: (s: string) => string,
): ExecResult & { traced: Pick<ToolCallLog, 'processes' | 'trace_truncated'> } {
  const out = join(mkdtempSync(join(tmpdir(), 'local-trace-')), 'trace');
  const r = spawnSync(
    'strace',
    [
      '-f',
      '-q',
      '-s',
      '4096',
      '-o',
      out,
      '-e',
      'signal=!SIGCHLD',
      ...wrapperTraceOptions(),
      'bash',
      '-c',
      map(command),
    ],
    { cwd: ws, encoding: 'utf8', timeout: 60_000, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } },
  );
  const text = readFileSync(out, 'latin1');
  rmSync(dirname(out), { recursive: true, force: true });
  const tmp = join(dirname(ws), 'tmp');
  const back = (s: string): string => s.replaceAll(ws, '/workspace').replaceAll(`${tmp}/`, '/tmp/');
  const program = <R extends ProgramRun>(r: R): R => ({
    ...r,
    exe: r.exe === null ? null : back(r.exe),
    argv: r.argv === null ? null : r.argv.map(back),
    cwd: r.cwd === null ? null : back(r.cwd),
    stdin: r.stdin === null ? null : back(r.stdin),
  });
  const records = parseTrace(text, { initialCwd: ws, harnessExecs: 0 }).map((p) => ({
    ...program(p),
    runs: p.runs.map(program),
    opens: p.opens.map((o) => ({ ...o, path: back(o.path) })),
    removed: p.removed.map(back),
    renamed: p.renamed.map((x) => ({ from: back(x.from), to: back(x.to) })),
  }));
  const { processes, truncated } = processLogs({ processes: records, truncated: false });
  return {
    exitCode: r.status,
    stdout: back(r.stdout),
    stderr: back(r.stderr),
    stdoutCutBytes: 0,
    stderrCutBytes: 0,
    timedOut: r.error !== undefined,
    elapsedMs: 0,
    traced: { processes, trace_truncated: truncated },
  };
}

function snapshot(ws: string): WorkspaceSnapshot {
  const out = new Map<string, SnapshotEntry>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const rel = relative(ws, path);
      const st = lstatSync(path);
      if (st.isSymbolicLink()) out.set(rel, { kind: 'symlink', target: readlinkSync(path) });
      else if (st.isDirectory()) {
        out.set(rel, { kind: 'dir', mode: st.mode & 0o7777 });
        walk(path);
      } else {
        const bytes = readFileSync(path);
        out.set(rel, {
          kind: 'file',
          sha256: createHash('sha256').update(bytes).digest('hex'),
          size: bytes.length,
          mode: st.mode & 0o7777,
        });
      }
    }
  };
  walk(ws);
  return out;
}
