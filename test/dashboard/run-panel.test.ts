/**
 * The run panel's server side with a stand-in CLI (fake-cli.mjs): a run streams its output and events
 * live over SSE, only one runs at a time, and cancel stops the process (SIGKILL when SIGTERM is ignored).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunState } from '../../src/dashboard/run-manager.js';
import type { Dashboard } from '../../src/dashboard/server.js';
import {
  copyFixtures,
  openEventStream,
  pageHeaders,
  raw,
  type SseEvent,
  startTestDashboard,
} from './harness.js';

let dash: Dashboard;
let fixtures: ReturnType<typeof copyFixtures>;

beforeEach(async () => {
  fixtures = copyFixtures();
  dash = await startTestDashboard({
    resultsDir: fixtures.dir,
    baseUrl: 'http://127.0.0.1:9/v1',
    graceMs: 800,
  });
});
afterEach(async () => {
  await dash.close();
  fixtures.remove();
});

const start = (body: unknown) => raw(dash.port, 'POST', '/api/run', pageHeaders(dash), JSON.stringify(body));
const runStates = (events: SseEvent[]) =>
  events.filter((e) => e.event === 'run').map((e) => e.data as RunState | null);
const lastRun = (events: SseEvent[]) => runStates(events).at(-1) ?? null;

describe('run panel (server side)', () => {
  it('streams a run live: state, output lines and events.jsonl events, then the exit', async () => {
    const stream = openEventStream(dash.port, '/api/events?since=run');
    await stream.waitFor((e) => e.some((x) => x.event === 'run'));
    const res = await start({ model: 'fast', task: 'debug_python_v1', k: 2 });
    expect(res.status).toBe(202);
    await stream.waitFor((e) =>
      e.some(
        (x) => x.event === 'trial' && (x.data as { event: { type: string } }).event.type === 'tool_call',
      ),
    );
    // The first event arrives while the run is still going: it is live, not replayed at the end.
    expect(lastRun(stream.events)?.status).toBe('running');
    await stream.waitFor((e) => lastRun(e)?.status === 'succeeded');
    // Events are tailed from the file, yet all of them arrive before the end.
    expect(
      stream.events.filter((x) => x.event === 'trial' && JSON.stringify(x.data).includes('trial_end')),
    ).toHaveLength(2);
    const logs = stream.events.filter((e) => e.event === 'log').map((e) => (e.data as { line: string }).line);
    expect(logs[0]).toBe(
      `$ agent-bench run --model fast --tasks debug_python_v1 --k 2 --results-dir ${fixtures.dir} --base-url http://127.0.0.1:9/v1`,
    );
    // The CLI is told where to keep its progress, and the panel's state follows it.
    const state = lastRun(stream.events);
    const statusPath = state?.command.at(-1) ?? '';
    expect(state?.command.at(-2)).toBe('--status-file');
    const progressed = runStates(stream.events).flatMap((r) => (r?.progress ? [r.progress] : []));
    // The file is read every half second and a fake trial lasts about that: some mid-run state of
    // either trial is seen, not necessarily the second's (under load it was missed).
    expect(
      progressed.some((p) =>
        /^task 1\/1 debug_python_v1 · trial [12]\/2 · turn \d\/3 · [01]\/2 trials/.test(p.line),
      ),
    ).toBe(true);
    await stream.waitFor((e) => lastRun(e)?.progress?.finished === true);
    expect(lastRun(stream.events)?.progress).toMatchObject({ done: 2, total: 2 });
    // The file goes with the run.
    await new Promise((r) => setTimeout(r, 100));
    expect(existsSync(statusPath)).toBe(false);
    expect(logs).toContain('fake summary: done');
    // The CLI's per-event progress lines are not repeated: the events themselves are shown.
    expect(logs.filter((l) => l.includes('execute_command'))).toEqual([]);
    const trials = stream.events
      .filter((e) => e.event === 'trial')
      .map((e) => (e.data as { event: { type: string } }).event.type);
    expect(trials.filter((t) => t === 'trial_end')).toHaveLength(2);
    // The run id the CLI chose was learned from its first event.
    expect(lastRun(stream.events)?.cli_run_id).toMatch(/^fake-\d+$/);
    await stream.close();
  });

  it('a run that ends right after its last event still shows every trial end before the run ends', async () => {
    const stream = openEventStream(dash.port, '/api/events?since=run');
    await stream.waitFor((e) => e.some((x) => x.event === 'run'));
    for (const k of [1, 3]) {
      const before = stream.events.length;
      const res = await start({ model: 'burst', task: 'debug_python_v1', k });
      expect(res.status).toBe(202);
      const { id } = (JSON.parse(res.body) as { run: RunState }).run;
      await stream.waitFor((e) => lastRun(e)?.id === id && lastRun(e)?.status === 'succeeded');
      // Nothing may arrive after the end for the page to miss: what it holds at the end is complete.
      const ended = stream.events.findIndex(
        (x) =>
          x.event === 'run' &&
          (x.data as RunState | null)?.id === id &&
          (x.data as RunState).status === 'succeeded',
      );
      const ends = stream.events
        .slice(before, ended)
        .filter(
          (x) => x.event === 'trial' && (x.data as { event: { type: string } }).event.type === 'trial_end',
        );
      expect(ends).toHaveLength(k);
    }
    await stream.close();
  });

  it('passes an existing skill folder as one argv element, and refuses anything else', async () => {
    const skill = join(fixtures.dir, '..', 'my skill; rm -rf ~');
    mkdirSync(skill);
    writeFileSync(join(fixtures.dir, '..', 'plain.txt'), 'x');
    const refused = async (skill_dir: unknown) => {
      const res = await start({ model: 'fast', task: 'all', k: 1, skill_dir });
      expect(res.status).toBe(400);
      return JSON.parse(res.body).error as string;
    };
    expect(await refused(join(fixtures.dir, '..', 'missing'))).toMatch(/does not exist$/);
    expect(await refused(join(fixtures.dir, '..', 'plain.txt'))).toMatch(/is not a folder$/);
    expect(await refused('relative/dir')).toMatch(/absolute path/);
    expect(await refused('--help')).toMatch(/absolute path/);
    expect(await refused(7)).toMatch(/folder path/);
    const stream = openEventStream(dash.port, '/api/events?since=run');
    const res = await start({ model: 'fast', task: 'all', k: 1, skill_dir: skill });
    expect(res.status).toBe(202);
    expect((JSON.parse(res.body).run as RunState).command.slice(-6, -4)).toEqual(['--skill-dir', skill]);
    await stream.waitFor((e) => lastRun(e)?.status === 'succeeded');
    const logs = stream.events.filter((e) => e.event === 'log').map((e) => (e.data as { line: string }).line);
    // The fake CLI got the whole path as one argument (no shell split it at the space or ran the `rm`).
    expect(logs.some((l) => l.endsWith(`skill ${skill}`))).toBe(true);
    expect(existsSync(skill)).toBe(true);
    await stream.close();
  });

  it('runs one at a time, with a clear message', async () => {
    expect((await start({ model: 'slow', task: 'debug_python_v1', k: 1 })).status).toBe(202);
    const second = await start({ model: 'fast', task: 'tdd_order_v1', k: 1 });
    expect(second.status).toBe(409);
    expect(JSON.parse(second.body).error).toMatch(/^a run is already in progress: slow on debug_python_v1/);
  });

  it('cancel sends SIGTERM, and the run ends as cancelled with the reason recorded', async () => {
    const stream = openEventStream(dash.port, '/api/events?since=run');
    await start({ model: 'slow', task: 'debug_python_v1', k: 1 });
    await stream.waitFor((e) => e.some((x) => x.event === 'trial'));
    expect((await raw(dash.port, 'POST', '/api/run/cancel', pageHeaders(dash), '{}')).status).toBe(202);
    await stream.waitFor((e) => lastRun(e)?.status === 'cancelled');
    const final = lastRun(stream.events);
    expect(final).toMatchObject({
      status: 'cancelled',
      exit_code: 130,
      stop_reason: 'cancelled from the dashboard',
    });
    const logs = stream.events.filter((e) => e.event === 'log').map((e) => (e.data as { line: string }).line);
    expect(logs).toContain('SIGTERM: stopping, removing containers...');
    await stream.close();
  });

  it('kills a child that ignores SIGTERM after the grace period', async () => {
    const stream = openEventStream(dash.port, '/api/events?since=run');
    await start({ model: 'stubborn', task: 'debug_python_v1', k: 1 });
    await stream.waitFor((e) => e.some((x) => x.event === 'trial'));
    await raw(dash.port, 'POST', '/api/run/cancel', pageHeaders(dash), '{}');
    await stream.waitFor((e) => lastRun(e)?.status === 'cancelled', 5000);
    expect(lastRun(stream.events)?.signal).toBe('SIGKILL');
    await stream.close();
  });

  it('a page that connects mid-run gets the run replayed from its start', async () => {
    await start({ model: 'slow', task: 'debug_python_v1', k: 1 });
    const first = openEventStream(dash.port, '/api/events?since=run');
    await first.waitFor((e) => e.filter((x) => x.event === 'trial').length >= 3);
    const late = openEventStream(dash.port, '/api/events?since=run');
    await late.waitFor((e) => e.filter((x) => x.event === 'trial').length >= 3);
    const firstOf = (s: typeof first) => s.events.find((x) => x.event === 'trial')?.data;
    expect(firstOf(late)).toEqual(firstOf(first));
    await Promise.all([first.close(), late.close()]);
  });

  it('stopping the dashboard stops its run', async () => {
    const stream = openEventStream(dash.port, '/api/events?since=run');
    await start({ model: 'slow', task: 'debug_python_v1', k: 1 });
    await stream.waitFor((e) => lastRun(e)?.cli_run_id !== null && lastRun(e) !== null);
    const pid = Number(lastRun(stream.events)?.cli_run_id?.replace('fake-', ''));
    expect(pid).toBeGreaterThan(0);
    await dash.close();
    await stream.close();
    expect(() => process.kill(pid, 0)).toThrow();
  });
});
