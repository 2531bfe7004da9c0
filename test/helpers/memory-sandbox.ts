/**
 * The tests' one sandbox in memory: it keeps files (bytes and modes) wherever the harness puts them
 * and the agent writes them, lists the workspace in snapshots as the Docker sandbox does (files,
 * and the directories that hold them), stages copies for checks and wipes it all at reset.
 * Commands run nothing: each succeeds with no output unless the test answers it (stdout, an exit
 * code, a process trace). Enough to drive whole trials through the real loop, dispatcher and
 * judges. It passes the sandbox conformance suite (test/sandbox/conformance.ts) but for what it
 * declares it cannot do: MEMORY_SANDBOX_LACKS.
 */
import { posix } from 'node:path';
import type {
  CommandResult,
  ExecTrace,
  ReadFileResult,
  Sandbox,
  SnapshotEntry,
  WorkspaceSnapshot,
} from '../../src/sandbox/types.js';
import { CHECKS_DIR, WORKSPACE_DIR } from '../../src/sandbox/types.js';
import { sha256 } from '../../src/util/hash.js';

interface MemoryFile {
  content: Buffer;
  mode: number;
}

export interface MemorySandbox extends Sandbox {
  /** Absolute path -> file. A test may plant or read files here directly. */
  readonly files: Map<string, MemoryFile>;
  /** Every command the agent ran, in order (faulted calls never get here). */
  readonly commands: string[];
  /** The text of the file at an absolute path, or undefined when there is none. */
  text(path: string): string | undefined;
}

type CommandAnswer = { stdout?: string; exitCode?: number; trace?: ExecTrace };

/** What it cannot do, for the conformance suite: no command really runs, no user is anyone. */
export const MEMORY_SANDBOX_LACKS = { shell: false, permissions: false, spawn: false } as const;

/** As the Docker sandbox's readFile returns at most, unless asked for another limit. */
const READ_LIMIT = 64 * 1024;

export function memorySandbox(answer: (command: string) => CommandAnswer = () => ({})): MemorySandbox {
  const files = new Map<string, MemoryFile>();
  const commands: string[] = [];
  let staged = 0;
  let last: WorkspaceSnapshot = new Map();
  const abs = (p: string): string => posix.resolve(WORKSPACE_DIR, p);
  const isDir = (path: string): boolean => [...files.keys()].some((p) => p.startsWith(`${path}/`));
  const snapshot = (): WorkspaceSnapshot => workspaceOf(files);
  const ok = { exitCode: 0, stdout: '', stderr: '', stdoutCutBytes: 0, stderrCutBytes: 0, timedOut: false };
  return {
    id: 'memory',
    cwd: WORKSPACE_DIR,
    files,
    commands,
    text: (path) => files.get(path)?.content.toString('utf8'),
    async runCommand(command): Promise<CommandResult> {
      commands.push(command);
      const a = answer(command);
      return {
        ...ok,
        exitCode: a.exitCode ?? 0,
        stdout: a.stdout ?? '',
        elapsedMs: 1,
        cwd: WORKSPACE_DIR,
        cwdAfter: WORKSPACE_DIR,
        ...(a.trace === undefined ? {} : { trace: a.trace }),
      };
    },
    async readFile(path, range = {}): Promise<ReadFileResult> {
      const at = abs(path);
      const file = files.get(at);
      if (file === undefined)
        return {
          ok: false,
          path: at,
          error: `cannot read ${at}: ${isDir(at) ? 'is a directory' : 'no such file'}`,
        };
      const offset = range.offset ?? 0;
      const end = offset + (range.limit ?? READ_LIMIT);
      if (offset < 0) return { ok: false, path: at, error: `cannot read ${at}: a negative offset` };
      const content = file.content.subarray(offset, end).toString('utf8');
      const totalBytes = file.content.length;
      return { ok: true, path: at, content, totalBytes, offset, truncated: end < totalBytes };
    },
    async writeFile(path, text) {
      const at = abs(path);
      if (isDir(at)) return { ok: false, path: at, error: `cannot write ${at}: is a directory` };
      const content = Buffer.from(text, 'utf8');
      files.set(at, { content, mode: files.get(at)?.mode ?? 0o644 });
      return { ok: true, path: at, bytes: content.length };
    },
    exec: async () => ({ ...ok, elapsedMs: 1 }),
    async putFiles(list) {
      for (const f of list) {
        const content =
          typeof f.content === 'string' ? Buffer.from(f.content, 'utf8') : Buffer.from(f.content);
        files.set(abs(f.path), { content, mode: f.mode ?? 0o644 });
      }
    },
    async getFiles(paths) {
      const out = new Map<string, Buffer>();
      for (const p of paths) {
        const file = files.get(abs(p));
        if (file !== undefined) out.set(p, Buffer.from(file.content));
      }
      return out;
    },
    snapshot: async () => {
      last = snapshot();
      return last;
    },
    workspaceChanges: async () => {
      const now = snapshot();
      const paths = [...new Set([...now.keys(), ...last.keys()])].filter(
        (p) => JSON.stringify(now.get(p)) !== JSON.stringify(last.get(p)),
      );
      last = now;
      return { paths: paths.sort(), snapshotMs: 0 };
    },
    killAgentProcesses: async () => {},
    // Nothing runs in the background of a memory sandbox.
    followedTraces: async () => [],
    killAllProcesses: async () => {},
    async stageForChecks() {
      const dir = `${CHECKS_DIR}/ws-${++staged}`;
      for (const [path, file] of [...files]) {
        if (!path.startsWith(`${WORKSPACE_DIR}/`)) continue;
        const mode = file.mode & 0o100 ? 0o755 : 0o644;
        files.set(`${dir}${path.slice(WORKSPACE_DIR.length)}`, { content: Buffer.from(file.content), mode });
      }
      return dir;
    },
    reset: async () => {
      files.clear();
      last = new Map();
    },
    dispose: async () => {},
  };
}

/** The snapshot of the files under /workspace: each file, and each directory above one (mode 0755). */
function workspaceOf(files: ReadonlyMap<string, MemoryFile>): WorkspaceSnapshot {
  const entries = new Map<string, SnapshotEntry>();
  for (const [path, file] of files) {
    if (!path.startsWith(`${WORKSPACE_DIR}/`)) continue;
    const rel = path.slice(WORKSPACE_DIR.length + 1);
    const parts = rel.split('/');
    for (let i = 1; i < parts.length; i++)
      entries.set(parts.slice(0, i).join('/'), { kind: 'dir', mode: 0o755 });
    entries.set(rel, {
      kind: 'file',
      sha256: sha256(file.content),
      size: file.content.length,
      mode: file.mode,
    });
  }
  return new Map([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** A trace of one command whose one program read and wrote these files (the shell record first). */
export function traceOf(argv: string[], io: { reads?: string[]; writes?: string[] }): ExecTrace {
  const shell = {
    pid: 1,
    parentPid: null,
    exe: '/usr/bin/bash',
    argv: ['bash', '-c', argv.join(' ')],
    cwd: '/workspace',
    stdin: null,
    runs: [],
    exitCode: 0,
    signal: null,
    opens: [],
    removed: [],
    renamed: [],
  };
  const program = {
    ...shell,
    pid: 2,
    parentPid: 1,
    exe: `/usr/bin/${argv[0]}`,
    argv,
    opens: [
      ...(io.reads ?? []).map((path) => ({ path, write: false })),
      ...(io.writes ?? []).map((path) => ({ path, write: true })),
    ],
  };
  return { processes: [shell, program], truncated: false };
}
