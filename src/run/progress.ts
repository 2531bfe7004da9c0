/**
 * What the user sees while a run goes on. On a terminal: one live line, rewritten in place, saying
 * where every trial in flight is (task x/N · trial i/k · turn t/max), how many trials are done, the
 * time elapsed and the time left; verdicts and notes print above it. Anywhere else (a pipe, a file,
 * CI set): plain lines only, one per event, the tally on every verdict, and the status line again
 * after a minute without output, so a log shows a long model reply is still going.
 */
import chalk from 'chalk';
import type { TrialEvent } from '../results/events.js';
import { type RunStatus, runTally, statusLine, type TrialPlace, trialLabel } from './progress-line.js';
import { createProgressState, type PlannedTask, type ProgressState } from './progress-state.js';

export interface Progress {
  /** The run's trials are about to start: elapsed time and time left count from here. */
  plan(tasks: readonly PlannedTask[]): void;
  /** A task starts with `toRun` trials left to run (fewer than k when resumed). */
  taskOpened(taskId: string, toRun: number): void;
  /** A task ended (it may have run fewer trials than planned: early stop, errors). */
  taskEnded(taskId: string): void;
  event(taskId: string, e: TrialEvent): void;
  /** Prints a line above the live line. */
  note(line: string): void;
  done(): void;
}

/** Where progress goes: a terminal (isTTY) gets the live line; anything else gets plain lines. */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface ProgressOptions {
  stream?: ProgressStream;
  /** Where CI is read from (default process.env): CI set means plain lines even on a terminal. */
  env?: NodeJS.ProcessEnv;
  now?: () => number;
  /** Calls fn every ms until the returned function is called (default setInterval); tests tick by hand. */
  every?: (ms: number, fn: () => void) => () => void;
  /** Given the run's status on every change, every second, and once more at the end (finished): a status file. */
  onStatus?: (status: RunStatus, finished: boolean) => void;
}

const REDRAW_MS = 250;
const STATUS_MS = 1000;
/** Plain lines: the status again after this long without output. */
export const QUIET_MS = 60_000;

export function createProgress(o: ProgressOptions = {}): Progress {
  const stream = o.stream ?? process.stderr;
  const now = o.now ?? Date.now;
  const every = o.every ?? defaultEvery;
  const live = stream.isTTY === true && !(o.env ?? process.env).CI;
  let state: ProgressState | null = null;
  let stopTimers: (() => void)[] = [];
  let lastOutput = now();

  const report = (finished = false): void => {
    if (state !== null) o.onStatus?.(state.status(now()), finished);
  };
  const draw = (): void => {
    report();
    if (!live || state === null) return;
    stream.write(`\r\x1b[2K${statusLine(state.status(now()), (stream.columns ?? 120) - 1)}`);
  };
  const stopAll = (): void => {
    for (const stop of stopTimers) stop();
    stopTimers = [];
  };
  const print = (line: string): void => {
    if (live) stream.write('\r\x1b[2K');
    stream.write(`${line}\n`);
    lastOutput = now();
    draw();
  };
  const heartbeat = (): void => {
    if (state === null || now() - lastOutput < QUIET_MS) return;
    print(`[progress] ${statusLine(state.status(now()))}`);
  };

  return {
    plan(tasks) {
      state = createProgressState(tasks, now());
      stopAll();
      stopTimers.push(live ? every(REDRAW_MS, draw) : every(QUIET_MS / 4, heartbeat));
      if (o.onStatus !== undefined && !live) stopTimers.push(every(STATUS_MS, () => report()));
      draw();
    },
    taskOpened(taskId, toRun) {
      state?.opened(taskId, toRun);
      draw();
    },
    taskEnded(taskId) {
      state?.ended(taskId);
      draw();
    },
    event(taskId, e) {
      const place = state?.event(taskId, e) ?? null;
      if (state === null || place === null) return;
      const current = state;
      const line = eventLine(e, place, live, () => runTally(current.status(now())));
      if (line !== null) print(line);
      draw();
    },
    note: print,
    done() {
      stopAll();
      report(true);
      if (live) stream.write('\r\x1b[2K');
    },
  };
}

/**
 * The line a trial event prints, or null. A live terminal shows where each trial is on the status
 * line, so it prints only what must stay visible (verdicts, model errors); plain lines print every
 * step, and a verdict with the run's tally so far.
 */
export function eventLine(
  e: TrialEvent,
  place: TrialPlace,
  live: boolean,
  tally: () => string,
): string | null {
  const where = trialLabel(place);
  const at = `${where} · turn ${place.turn}/${place.maxTurns}`;
  switch (e.type) {
    case 'trial_start':
      return live ? null : `[${where}] start`;
    case 'model_reply':
      return !live && e.text.trim() !== '' ? `[${at}] says: ${oneLine(e.text)}` : null;
    case 'model_error':
      return `[${at}] ${chalk.red('model error')}: ${e.error}`;
    case 'tool_call': {
      if (live) return null;
      const outcome = e.invalid !== null ? `INVALID (${e.invalid})` : `exit ${e.exit_code ?? '?'}`;
      return `[${at}] ${e.name}${e.source === 'text' ? ' (text)' : ''} ${oneLine(e.arg)} -> ${outcome}`;
    }
    case 'trial_end': {
      const verdict = e.passed
        ? chalk.green('PASS')
        : e.status === 'error'
          ? chalk.red('ERROR')
          : chalk.yellow('FAIL');
      return `[${where}] ${verdict} score ${e.score.toFixed(2)} in ${e.turns} turns${live ? '' : ` · ${tally()}`}`;
    }
  }
  return null;
}

function defaultEvery(ms: number, fn: () => void): () => void {
  const timer = setInterval(fn, ms);
  // Progress never keeps the process alive on its own.
  timer.unref();
  return () => clearInterval(timer);
}

function oneLine(s: string): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > 120 ? `${flat.slice(0, 117)}...` : flat;
}
