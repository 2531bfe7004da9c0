/**
 * Runs started from the dashboard: one at a time, each a child `agent-bench run` process. The child
 * writes results and events.jsonl itself; this keeps its output lines, learns its run id from the first
 * event it logs, and cancels it with SIGTERM (the CLI removes its containers), then SIGKILL after a grace.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { EVENTS_FILE } from '../results/layout.js';
import type { RunStatusFile } from '../results/run-status.js';
import { currentSize, tailEvents } from './event-tail.js';
import { watchStatusFile } from './status-watch.js';

export interface RunRequest {
  model: string;
  /** A task id, or "all". */
  task: string;
  k: number;
  /** An absolute path to an existing skill folder (checked by the route), or null. */
  skill_dir: string | null;
}

export interface RunState extends RunRequest {
  id: string;
  status: 'running' | 'succeeded' | 'failed' | 'cancelled';
  started_at: string;
  ended_at: string | null;
  exit_code: number | null;
  signal: string | null;
  /** The run id the CLI writes into events and results (known once it logs its first event). */
  cli_run_id: string | null;
  /** Why it was stopped, recorded before the signal is sent. */
  stop_reason: string | null;
  /** Byte offset of events.jsonl when the run started: its events come after it. */
  events_offset: number;
  command: string[];
  /** The CLI's progress (its --status-file), once it has planned the trials. */
  progress: RunStatusFile | null;
}

export interface LogLine {
  seq: number;
  line: string;
}

export interface RunManagerOptions {
  resultsDir: string;
  baseUrl: string | null;
  /** The agent-bench executable (bin/agent-bench); tests pass a stand-in script. */
  cliEntry: string;
  graceMs?: number;
  onChange(state: RunState): void;
  onLog(line: LogLine): void;
}

export class RunBusyError extends Error {}

const MAX_LOG_LINES = 5000;

export function createRunManager(o: RunManagerOptions) {
  let state: RunState | null = null;
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();
  const log = createRunLog(o.onLog);

  const update = (patch: Partial<RunState>): void => {
    if (state === null) return;
    state = { ...state, ...patch };
    o.onChange(state);
  };

  /** SIGTERM now, SIGKILL after the grace period; false when nothing is running. */
  function cancel(reason = 'cancelled from the dashboard'): boolean {
    const proc = child;
    if (proc === null || state?.status !== 'running') return false;
    if (state.stop_reason === null) update({ stop_reason: reason });
    proc.kill('SIGTERM');
    const killer = setTimeout(() => proc.kill('SIGKILL'), o.graceMs ?? 20_000);
    killer.unref();
    void exited.then(() => clearTimeout(killer));
    return true;
  }

  return {
    state: (): RunState | null => state,
    /** Output lines with seq >= since. */
    logSince: log.since,

    async start(req: RunRequest): Promise<RunState> {
      const eventsPath = join(o.resultsDir, EVENTS_FILE);
      const eventsOffset = await currentSize(eventsPath);
      // Checked after the last await, so two requests racing cannot both start a run.
      if (state?.status === 'running') {
        throw new RunBusyError(
          `a run is already in progress: ${state.model} on ${state.task} (started ${state.started_at})`,
        );
      }
      const args = runArgs(req, o.resultsDir, o.baseUrl);
      const id = randomUUID();
      // Beside the results, hidden: the result index skips dot files.
      const statusPath = join(o.resultsDir, `.run-status-${id}.json`);
      const command = [process.execPath, o.cliEntry, ...args, '--status-file', statusPath];
      const started = newRunState(req, id, command, eventsOffset);
      state = started;
      log.clear();
      log.add(`$ agent-bench ${args.join(' ')}`);
      const tail = tailEvents(eventsPath, eventsOffset, (e) => {
        if (state?.cli_run_id !== null || e.ts < started.started_at) return;
        update({ cli_run_id: e.run_id });
        tail.stop();
      });
      const proc = spawnRun(command, log.add);
      child = proc;
      const status = watchStatusFile(statusPath, (progress) => update({ progress }));
      exited = new Promise((done) => {
        proc.on('close', (code, signal) => {
          tail.stop();
          status.stop();
          child = null;
          const end = runEnd(state?.stop_reason ?? null, code, signal);
          log.add(end.line);
          update(end.patch);
          done();
        });
      });
      o.onChange(started);
      return started;
    },

    cancel,

    /** Stops a running child and waits for it (the server calls this on shutdown). */
    async close(): Promise<void> {
      cancel('the dashboard was stopped');
      await exited;
    },
  };
}

/** The CLI's arguments for a run the panel asked for (the status file is added apart). */
export function runArgs(req: RunRequest, resultsDir: string, baseUrl: string | null): string[] {
  const args = [
    'run',
    '--model',
    req.model,
    '--tasks',
    req.task,
    '--k',
    String(req.k),
    '--results-dir',
    resultsDir,
  ];
  if (req.skill_dir !== null) args.push('--skill-dir', req.skill_dir);
  if (baseUrl !== null) args.push('--base-url', baseUrl);
  return args;
}

/** How an exited run is recorded: cancelled when a stop reason was recorded first, else by its exit. */
export function runEnd(
  stopReason: string | null,
  code: number | null,
  signal: NodeJS.Signals | null,
): { line: string; patch: Partial<RunState> } {
  const cancelled = stopReason !== null;
  return {
    line: cancelled ? `(cancelled: ${stopReason})` : `(exited with ${signal ?? code})`,
    patch: {
      status: cancelled ? 'cancelled' : code === 0 ? 'succeeded' : 'failed',
      ended_at: new Date().toISOString(),
      exit_code: code,
      signal,
    },
  };
}

function newRunState(req: RunRequest, id: string, command: string[], eventsOffset: number): RunState {
  return {
    ...req,
    id,
    status: 'running',
    started_at: new Date().toISOString(),
    ended_at: null,
    exit_code: null,
    signal: null,
    cli_run_id: null,
    stop_reason: null,
    events_offset: eventsOffset,
    command,
    progress: null,
  };
}

/**
 * The run's output lines, the newest MAX_LOG_LINES kept. Sequence numbers keep growing while old
 * lines are dropped, so a reader never stalls at the cap.
 */
function createRunLog(onLog: (line: LogLine) => void) {
  const lines: LogLine[] = [];
  let seq = 0;
  return {
    add(line: string): void {
      const entry = { seq: seq++, line };
      lines.push(entry);
      if (lines.length > MAX_LOG_LINES) lines.splice(0, lines.length - MAX_LOG_LINES);
      onLog(entry);
    },
    since: (from: number): LogLine[] => lines.filter((l) => l.seq >= from),
    clear(): void {
      lines.length = 0;
    },
  };
}

/** The child CLI, its output lines into the log (less the event echoes the panel shows already). */
function spawnRun(command: string[], addLine: (line: string) => void): ChildProcess {
  const proc = spawn(process.execPath, command.slice(1), {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: process.env,
  });
  for (const stream of [proc.stdout, proc.stderr]) {
    if (stream === null) continue;
    createInterface({ input: stream }).on('line', (line) => {
      if (!isEventEcho(line)) addLine(line);
    });
  }
  proc.on('error', (err) => addLine(`agent-bench could not start: ${err.message}`));
  return proc;
}

export type RunManager = ReturnType<typeof createRunManager>;

/**
 * The CLI's plain progress prints one line per trial event (`[task 1/2 x · trial 1/3 · turn 2/30] …`,
 * src/run/progress.ts). The panel shows those events from events.jsonl already, so the echo is
 * dropped: each event appears once. Notes, warnings and the summary are kept.
 */
function isEventEcho(line: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: colour codes, when the child forces them
  const plain = line.replace(/\x1b\[[0-9;]*m/g, '');
  return /^\[task \d+\/\d+ \S+ · trial \d+\/\d+(?: · turn \d+\/\d+)?\] /.test(plain);
}
