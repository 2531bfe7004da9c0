/** The run panel's routes: start and cancel (state-changing, guarded by the server), and the live stream. */

import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isAbsolute, join } from 'node:path';
import { EVENTS_FILE } from '../results/layout.js';
import { currentSize, tailEvents } from './event-tail.js';
import { BodyError, readJsonBody, sendError, sendJson } from './http-util.js';
import {
  type LogLine,
  RunBusyError,
  type RunManager,
  type RunRequest,
  type RunState,
} from './run-manager.js';
import { openSse } from './sse.js';
import type { TaskList } from './task-list.js';

export interface RunContext {
  resultsDir: string;
  runs: RunManager;
  tasks(): Promise<TaskList>;
  /** Open event streams, so run state and output lines reach every page. */
  clients: Set<RunStream>;
}

/** One page's live stream: run state, output lines and events.jsonl events, in the order they happened. */
export interface RunStream {
  run(state: RunState | null): void;
  log(line: LogLine): void;
  close(): void;
}

const MAX_K = 20;

export async function postRun(req: IncomingMessage, res: ServerResponse, ctx: RunContext): Promise<void> {
  let request: RunRequest;
  try {
    request = parseRunRequest(await readJsonBody(req), await ctx.tasks());
    if (request.skill_dir !== null) await checkSkillDir(request.skill_dir);
  } catch (err) {
    if (err instanceof BodyError) return sendError(res, err.status, err.message);
    throw err;
  }
  try {
    sendJson(res, 202, { run: await ctx.runs.start(request) });
  } catch (err) {
    if (err instanceof RunBusyError) return sendError(res, 409, err.message);
    throw err;
  }
}

export function postCancel(res: ServerResponse, ctx: RunContext): void {
  if (ctx.runs.cancel()) sendJson(res, 202, { run: ctx.runs.state() });
  else sendError(res, 409, 'no run is in progress');
}

/**
 * The live stream: the current run's state and output lines (replayed on connect), then events.jsonl
 * lines as they are appended: from the current run's start with `since=run`, otherwise from now.
 */
export async function getEvents(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: RunContext,
  sinceRun: boolean,
): Promise<void> {
  const run = ctx.runs.state();
  const from =
    sinceRun && run !== null ? run.events_offset : await currentSize(join(ctx.resultsDir, EVENTS_FILE));
  const client = openSse(req, res);
  client.send('run', run);
  for (const line of ctx.runs.logSince(0)) client.send('log', line);
  const tail = tailEvents(join(ctx.resultsDir, EVENTS_FILE), from, (e) => client.send('trial', e));
  // Events are read from the file on a timer, while a run's end is known the moment its process exits:
  // the end waits until the file has been read up to then, so a page never sees a run end before its
  // last trial does. Everything queues behind it, keeping the order.
  let queue = Promise.resolve();
  const inOrder = (send: () => void, readEventsFirst: boolean): void => {
    queue = queue.then(async () => {
      if (readEventsFirst) await tail.flush();
      send();
    });
  };
  const stream: RunStream = {
    run: (state) => inOrder(() => client.send('run', state), state !== null && state.status !== 'running'),
    log: (line) => inOrder(() => client.send('log', line), false),
    close: () => client.close(),
  };
  ctx.clients.add(stream);
  client.onClose(() => {
    tail.stop();
    ctx.clients.delete(stream);
  });
}

function parseRunRequest(body: unknown, tasks: TaskList): RunRequest {
  const o = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const { model, task, k, skill_dir } = o;
  // A value starting with "-" would read as an option to the child's command line.
  if (typeof model !== 'string' || !/^[^\s-]\P{Cc}{0,199}$/u.test(model)) {
    throw new BodyError(400, 'model: a model name is required');
  }
  const known = tasks.tasks.some((t) => t.id === task);
  const plausible = typeof task === 'string' && /^[A-Za-z0-9][\w.:-]{0,119}$/.test(task);
  if (typeof task !== 'string' || !(task === 'all' || known || (tasks.tasks.length === 0 && plausible))) {
    throw new BodyError(400, `task: unknown task ${JSON.stringify(task)}`);
  }
  if (typeof k !== 'number' || !Number.isInteger(k) || k < 1 || k > MAX_K) {
    throw new BodyError(400, `k: an integer from 1 to ${MAX_K}`);
  }
  if (skill_dir !== undefined && skill_dir !== null && skill_dir !== '' && typeof skill_dir !== 'string') {
    throw new BodyError(400, 'skill_dir: a folder path');
  }
  const dir = typeof skill_dir === 'string' && skill_dir.trim() !== '' ? skill_dir.trim() : null;
  return { model, task, k, skill_dir: dir };
}

/**
 * A skill folder must be an absolute path to a folder that exists (the child would resolve a relative
 * one against the dashboard's working directory, which the page cannot see). It reaches the child as
 * one argv element, never through a shell; being absolute, it cannot read as an option.
 */
async function checkSkillDir(dir: string): Promise<void> {
  if (dir.includes('\0') || !isAbsolute(dir)) {
    throw new BodyError(400, 'skill_dir: an absolute path to a skill folder');
  }
  const info = await stat(dir).catch(() => null);
  if (info === null) throw new BodyError(400, `skill_dir: ${dir} does not exist`);
  if (!info.isDirectory()) throw new BodyError(400, `skill_dir: ${dir} is not a folder`);
}
