/** The runner end to end: pass^k, early stop, container reuse and reset, results files, resume, events. */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readResultFiles, verifyHash, withHash } from '../../src/results/store.js';
import { LABEL } from '../../src/sandbox/docker/labels.js';
import { InterruptedError } from '../../src/util/errors.js';
import { lastToolResult, type ScriptedReply } from '../helpers/scripted-server.js';
import { taskFolderFile } from '../tasks/folder-files.js';
import { benchWithScript, MODEL, only } from './bench-harness.js';

const exec = (command: string): ScriptedReply => ({
  calls: [{ name: 'execute_command', arguments: { command } }],
});
const write = (path: string, content: string): ScriptedReply => ({
  calls: [{ name: 'write_file', arguments: { path, content } }],
});
const done: ScriptedReply = { text: 'Done.' };
const AGENT_TESTS = taskFolderFile('tdd_order_v1', 'solution/test_slugify.py');
const IMPLEMENTATION = taskFolderFile('tdd_order_v1', 'solution/slugify.py');

describe.sequential('runner', () => {
  it('TDD in the wrong order leaves test_first unreached while tests_pass is reached', async () => {
    const result = only(
      await benchWithScript({
        tasks: 'tdd_order_v1',
        script: [
          write('slugify.py', IMPLEMENTATION),
          write('test_slugify.py', AGENT_TESTS),
          exec('python3 -m pytest -q'),
          done,
        ],
      }),
    );
    const flags = result.trials[0]?.flags;
    expect(flags?.test_first?.reached).toBe(false);
    expect(flags?.red_observed?.reached).toBe(false);
    expect(flags?.tests_pass).toMatchObject({ reached: true, turn: null });
    expect(result.trials[0]?.passed).toBe(false);
  });

  it('--early-stop ends the task at its first failed trial and keeps k as requested', async () => {
    const run = await benchWithScript({
      tasks: 'debug_python_v1',
      script: [done, done, done],
      settings: { k: 3, early_stop: true },
    });
    const result = only(run);
    expect(result.k).toBe(3);
    expect(result.trials_run).toBe(1);
    expect(result.early_stopped).toBe(true);
    expect(result.pass_all_k).toBe(false);
    expect(result.pass_hat_k).toBe(0);
    expect(run.requests).toHaveLength(1);
  });

  it('without --early-stop all k trials run in one reused container that is reset between trials', async () => {
    // Trial 0 leaves traces everywhere it can; trial 1 looks for them.
    const litter = exec(
      'mkdir -p /workspace/sub && cd /workspace/sub && touch /workspace/stray.txt /tmp/leftover && (sleep 300 &) && echo spawned',
    );
    const look = exec('pwd; ls -A /workspace /tmp; pgrep -u agent -x sleep || echo no-sleep');
    const run = await benchWithScript({
      tasks: 'debug_python_v1',
      script: [litter, exec('pwd'), done, look, done],
      settings: { k: 2 },
    });
    const result = only(run);
    expect(result.trials_run).toBe(2);
    expect(result.container_reuse).toBe(true);
    const first = result.trials[0]?.turn_logs;
    expect(first?.[0]?.tool_calls[0]?.stdout).toContain('spawned');
    expect(first?.[1]?.tool_calls[0]?.stdout.trim()).toBe('/workspace/sub'); // cwd persisted within the trial
    const seen = result.trials[1]?.turn_logs[0]?.tool_calls[0]?.stdout ?? '';
    expect(seen.split('\n')[0]).toBe('/workspace'); // cwd restored
    expect(seen).not.toContain('stray.txt');
    expect(seen).not.toContain('leftover');
    expect(seen).not.toContain('sub');
    expect(seen).toContain('no-sleep');
    expect(seen).toContain('durations.py'); // setup re-ran
  });

  it('records what the server says about itself and warns before the run when it falls short', async () => {
    const run = await benchWithScript({
      tasks: 'debug_python_v1',
      script: [done],
      props: {
        build_info: 'b9999-test',
        default_generation_settings: { n_ctx: 4096 },
        total_slots: 2,
        chat_template_caps: { supports_tool_calls: false },
      },
    });
    expect(only(run).environment.server).toEqual({
      kind: 'llama-server',
      version: 'b9999-test',
      context_length: 4096,
      parallel_slots: 2,
      tool_support: false,
    });
    expect(run.log).toMatch(/warning: the server gives the model a context of 4096 tokens/);
    expect(run.log).toMatch(/warning: the model's chat template has no tool support/);
  });

  it('--fresh-container gives each trial its own container', async () => {
    // The root filesystem's overlay upper dir is unique to each container.
    const whoami = exec("grep -o 'upperdir=[^,]*' /proc/self/mountinfo | head -1");
    const result = only(
      await benchWithScript({
        tasks: 'debug_python_v1',
        script: [whoami, done, whoami, done],
        settings: { k: 2, fresh_container: true },
      }),
    );
    expect(result.container_reuse).toBe(false);
    const hosts = result.trials.map((t) => t.turn_logs[0]?.tool_calls[0]?.stdout.trim());
    expect(hosts[0]).toMatch(/^upperdir=\S+$/);
    expect(hosts[1]).toMatch(/^upperdir=\S+$/);
    expect(hosts[0]).not.toBe(hosts[1]);
  });

  it('writes a verifiable results file and events, and --resume continues an interrupted run', async () => {
    const first = await benchWithScript({
      tasks: 'debug_python_v1',
      script: [done, done],
      settings: { k: 2 },
    });
    const files = (await readResultFiles(first.resultsDir)).results;
    expect(files).toHaveLength(1);
    const stored = files[0];
    if (stored === undefined) throw new Error('no results file');
    expect(stored.path).toMatch(new RegExp(`debug_python_v1__${MODEL}__[0-9TZ]+-[0-9a-f]{4}\\.json$`));
    expect(verifyHash(stored.result)).toBe(true);
    expect(stored.result.status).toBe('complete');
    expect(stored.result.environment.image_id).toMatch(/^sha256:/);
    expect(JSON.stringify(stored.result)).not.toContain('AGENT_BENCH_TEST_KEY=');

    const events = (await readFile(`${first.resultsDir}/events.jsonl`, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const types = events.map((e) => e.event.type);
    expect(types.filter((t) => t === 'trial_start')).toHaveLength(2);
    expect(types.filter((t) => t === 'trial_end')).toHaveLength(2);
    expect(events.every((e) => e.run_id === stored.result.run_id && e.task === 'debug_python_v1')).toBe(true);

    // Simulate a crash after the first trial: the file as it was written after trial 0.
    // Every write is hashed, so the crashed file is too.
    const { result_hash: _, schema_version: __, ...rest } = stored.result;
    const crashed = withHash({ ...rest, status: 'running', trials: rest.trials.slice(0, 1) });
    await writeFile(stored.path, JSON.stringify(crashed));
    const resumed = only(
      await benchWithScript({
        tasks: 'debug_python_v1',
        script: [done],
        settings: { k: 2 },
        resultsDir: first.resultsDir,
        resume: true,
      }),
    );
    expect(resumed.run_id).toBe(stored.result.run_id);
    expect(resumed.trials.map((t) => t.index)).toEqual([0, 1]);
    expect(resumed.status).toBe('complete');
    expect((await readResultFiles(first.resultsDir)).results).toHaveLength(1);
  });

  it("--parallel auto takes the server's slots: the trials in flight have a container each, recorded in order", async () => {
    // The root filesystem's overlay upper dir is unique to each container.
    const whoami = exec("grep -o 'upperdir=[^,]*' /proc/self/mountinfo | head -1");
    const run = await benchWithScript({
      tasks: 'debug_python_v1',
      // Stateless: requests of the two trials interleave.
      script: (body) => (lastToolResult(body) === null ? whoami : done),
      settings: { k: 2 },
      parallel: 'auto',
      props: { build_info: 'b1-test', default_generation_settings: { n_ctx: 32768 }, total_slots: 2 },
    });
    expect(run.log).toContain("--parallel auto: 2 at a time (the server's slots)");
    const result = only(run);
    expect(result.environment.parallel).toBe(2);
    expect(result.status).toBe('complete');
    expect(result.trials.map((t) => t.index)).toEqual([0, 1]);
    const uppers = result.trials.map((t) => t.turn_logs[0]?.tool_calls[0]?.stdout.trim());
    expect(uppers[0]).toMatch(/^upperdir=\S+$/);
    expect(uppers[1]).toMatch(/^upperdir=\S+$/);
    expect(uppers[0]).not.toBe(uppers[1]);
    expect(run.log).toMatch(
      /^Total: 1 task · 2 trials · wall \S+ \(2 at a time\) · model\+tools \S+ · harness \S+ · peak memory \d+ MiB$/m,
    );
  });

  it('an abort with trials of two tasks in flight removes every container and leaves no result running', async () => {
    const resultsDir = await mkdtemp(join(tmpdir(), 'agent-bench-results-'));
    const controller = new AbortController();
    let requests = 0;
    const err = await benchWithScript({
      tasks: 'debug_python_v1,tdd_order_v1',
      // Both trials are waiting on the model when the user presses Ctrl-C.
      script: () => {
        if (++requests === 2) setTimeout(() => controller.abort(new InterruptedError('SIGINT')), 200);
        return { ...done, delayMs: 60_000 };
      },
      parallel: 2,
      resultsDir,
      signal: controller.signal,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InterruptedError);
    const files = (await readResultFiles(resultsDir)).results.map((f) => f.result);
    expect(files.map((f) => `${f.task_id} ${f.status} ${f.trials.length}`).sort()).toEqual([
      'debug_python_v1 interrupted 0',
      'tdd_order_v1 interrupted 0',
    ]);
    const runId = files[0]?.run_id ?? '';
    const left = execFileSync('docker', ['ps', '-aq', '--filter', `label=${LABEL.run}=${runId}`], {
      encoding: 'utf8',
    });
    expect(left.trim()).toBe('');
  });
});
