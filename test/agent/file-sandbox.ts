/**
 * A sandbox in memory that keeps files: what the harness puts, what the agent writes, what a read
 * returns and what the snapshots list. Commands run nothing real; a test may answer them (stdout, a
 * process trace). Enough to drive whole trials through the real loop, dispatcher and judges.
 */
import { posix } from 'node:path';
import type { CommandResult, ExecTrace, Sandbox, WorkspaceSnapshot } from '../../src/sandbox/types.js';
import { sha256 } from '../../src/util/hash.js';

export interface FileSandbox extends Sandbox {
  /** Absolute path -> content. */
  files: Map<string, string>;
  /** Every command the agent ran, in order (faulted calls never get here). */
  commands: string[];
}

type CommandAnswer = { stdout?: string; exitCode?: number; trace?: ExecTrace };

export function fileSandbox(answer: (command: string) => CommandAnswer = () => ({})): FileSandbox {
  const files = new Map<string, string>();
  const commands: string[] = [];
  const abs = (p: string): string => posix.resolve('/workspace', p);
  const snapshot = (): WorkspaceSnapshot =>
    new Map(
      [...files]
        .filter(([p]) => p.startsWith('/workspace/'))
        .map(([p, c]) => [
          p.slice('/workspace/'.length),
          { kind: 'file' as const, sha256: sha256(c), size: c.length, mode: 0o644 },
        ]),
    );
  let last = snapshot();
  const ok = { exitCode: 0, stdout: '', stderr: '', stdoutCutBytes: 0, stderrCutBytes: 0, timedOut: false };
  return {
    id: 'files',
    cwd: '/workspace',
    files,
    commands,
    async runCommand(command): Promise<CommandResult> {
      commands.push(command);
      const a = answer(command);
      return {
        ...ok,
        exitCode: a.exitCode ?? 0,
        stdout: a.stdout ?? '',
        elapsedMs: 1,
        cwd: '/workspace',
        cwdAfter: '/workspace',
        ...(a.trace === undefined ? {} : { trace: a.trace }),
      };
    },
    async readFile(path) {
      const content = files.get(abs(path));
      if (content === undefined) return { ok: false, path: abs(path), error: `${path}: No such file` };
      return { ok: true, path: abs(path), content, totalBytes: content.length, offset: 0, truncated: false };
    },
    async writeFile(path, content) {
      files.set(abs(path), content);
      return { ok: true, path: abs(path), bytes: content.length };
    },
    exec: async () => ({ ...ok, elapsedMs: 1 }),
    async putFiles(list) {
      for (const f of list) files.set(abs(f.path), String(f.content));
    },
    async getFiles(paths) {
      const out = new Map<string, Buffer>();
      for (const p of paths) {
        const c = files.get(p);
        if (c !== undefined) out.set(p, Buffer.from(c));
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
    killAllProcesses: async () => {},
    stageForChecks: async () => '/checks/copy',
    reset: async () => {
      files.clear();
      last = snapshot();
    },
    dispose: async () => {},
  };
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
