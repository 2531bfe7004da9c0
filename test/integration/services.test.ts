/**
 * A task with a sidecar, end to end through the real engine: the `api` service is built offline on
 * the sandbox image and runs in the agent's container's network namespace. validate proves the
 * task (the oracle asks the service; guessing and doing nothing fail), a scripted model that asks
 * `api` by name passes and one that guesses fails, the service starts afresh for each trial,
 * nothing but the pod's services is reachable, and nothing is left running afterwards.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTaskFolder } from '../../src/catalogue/native/load.js';
import { DEFAULT_LIMITS } from '../../src/run/settings.js';
import { LABEL } from '../../src/sandbox/docker/labels.js';
import { createDockerSandbox, ensureImage, ServiceStopped } from '../../src/sandbox/index.js';
import { SERVICE_LABEL } from '../../src/sandbox/services/service-container.js';
import { attribute } from '../../src/trial/attribution.js';
import { validateTasks } from '../../src/validate/validate-tasks.js';
import { benchWithScript, only } from './bench-harness.js';
import { done, exec, fetch, write } from './service-replies.js';

const FIXTURE = join(import.meta.dirname, 'fixtures/services-native');

/** The containers of this run's pods still on the engine (the agent's and the services'). */
function leftovers(run: string): string {
  return execFileSync(
    'docker',
    ['ps', '-a', '--filter', `label=${LABEL.run}=${run}`, '--format', '{{.Names}}'],
    {
      encoding: 'utf8',
    },
  ).trim();
}

describe.sequential('services (a pod around the sandbox)', () => {
  it('validate proves the task: the oracle asks the service, guessing and doing nothing fail', async () => {
    const image = await ensureImage();
    const task = loadTaskFolder(FIXTURE);
    const rows = await validateTasks([task], {
      openSandbox: (t) =>
        createDockerSandbox({
          image: image.tag,
          limits: DEFAULT_LIMITS,
          labels: { run: 'services-validate-test' },
          ...(t.environment.services === undefined ? {} : { services: t.environment.services }),
        }),
    });
    expect(rows.map((r) => [r.run, r.kind])).toEqual([
      ['oracle', 'passed'],
      ['do-nothing', 'passed'],
      ['guess', 'passed'],
    ]);
    expect(leftovers('services-validate-test')).toBe('');
  }, 600_000);

  it('a model that asks api by name passes, each trial meets a fresh service, and nothing else is reachable', async () => {
    const run = await benchWithScript({
      tasks: [loadTaskFolder(FIXTURE)],
      settings: { k: 2 },
      script: [
        // Trial 1: the service's state, then a way out that must not exist, then the answer.
        exec(fetch('http://api:8000/visits')),
        exec(fetch('http://10.1.2.3:80/')),
        exec(`${fetch('http://api:8000/secret')} > answer.txt`),
        done,
        // Trial 2: the service was started afresh, so its count starts again.
        exec(fetch('http://api:8000/visits')),
        exec(`${fetch('http://api:8000/secret')} > answer.txt`),
        done,
      ],
    });
    const result = only(run);
    expect(result.trials.map((t) => [t.status, t.passed])).toEqual([
      ['passed', true],
      ['passed', true],
    ]);
    const out = (trial: number, turn: number) =>
      result.trials[trial]?.turn_logs[turn]?.tool_calls[0]?.stdout.trim();
    expect(out(0, 0)).toBe('1');
    expect(out(0, 1)).toMatch(/^unreachable: .*Network is unreachable/);
    expect(result.trials[0]?.turn_logs[1]?.tool_calls[0]?.exit_code).toBe(7);
    expect(out(1, 0)).toBe('1');
    expect(leftovers(result.run_id)).toBe('');
  }, 600_000);

  it('a model that guesses fails the trial (the model’s failure, not an error)', async () => {
    const result = only(
      await benchWithScript({
        tasks: [loadTaskFolder(FIXTURE)],
        script: [write('answer.txt', 'secret-1234'), done],
      }),
    );
    expect(result.trials[0]?.status).toBe('failed');
    expect(result.trials[0]?.flags.answer_correct?.reached).toBe(false);
    expect(leftovers(result.run_id)).toBe('');
  }, 600_000);

  it('a service that never becomes healthy is an infrastructure error naming its check and log, and is removed', async () => {
    const image = await ensureImage();
    const task = loadTaskFolder(FIXTURE);
    const [api] = task.environment.services?.services ?? [];
    if (api === undefined) throw new Error('the fixture has a service');
    const broken = {
      taskId: 'services-broken',
      services: [
        {
          ...api,
          command: [
            'python3',
            '-c',
            'import sys, time; print("cannot bind", file=sys.stderr); time.sleep(60)',
          ],
          healthcheck: {
            test: ['CMD', 'false'],
            intervalMs: 200,
            timeoutMs: 1000,
            retries: 2,
            startPeriodMs: 0,
          },
        },
      ],
    };
    const labels = { run: 'services-unhealthy-test' };
    await expect(
      createDockerSandbox({ image: image.tag, limits: DEFAULT_LIMITS, labels, services: broken }),
    ).rejects.toThrow(
      /services-broken: service "api" did not become ready: unhealthy; its health check's last output: exit code 1.*; its log ended: cannot bind/,
    );
    expect(leftovers('services-unhealthy-test')).toBe('');
    expect(
      execFileSync(
        'docker',
        [
          'ps',
          '-aq',
          '--filter',
          `label=${SERVICE_LABEL}=api`,
          '--filter',
          `label=${LABEL.run}=services-unhealthy-test`,
        ],
        { encoding: 'utf8' },
      ).trim(),
    ).toBe('');
  }, 600_000);

  it('a service that dies during a trial stops the trial’s last look with its log, charged to the agent', async () => {
    const image = await ensureImage();
    const task = loadTaskFolder(FIXTURE);
    const labels = { run: 'services-dying-test' };
    const sandbox = await createDockerSandbox({
      image: image.tag,
      limits: DEFAULT_LIMITS,
      labels,
      ...(task.environment.services === undefined ? {} : { services: task.environment.services }),
    });
    try {
      await sandbox.snapshot();
      // Stopped from outside, as a crash would: the agent has no way to signal it.
      execFileSync('docker', [
        'kill',
        ...execFileSync(
          'docker',
          [
            'ps',
            '-q',
            '--filter',
            `label=${LABEL.run}=services-dying-test`,
            '--filter',
            `label=${SERVICE_LABEL}=api`,
          ],
          { encoding: 'utf8' },
        )
          .trim()
          .split('\n'),
      ]);
      const stopped = sandbox.snapshot();
      await expect(stopped).rejects.toThrow(
        /services-native: service "api" stopped \(exited, exit code 137\)/,
      );
      // After the agent's turns, the agent's failure: it shares the service's network.
      const err = await stopped.catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ServiceStopped);
      expect(attribute(err, 'judging')).toMatchObject({
        charge: 'agent',
        fault: { kind: 'service_stopped' },
      });
    } finally {
      await sandbox.dispose();
    }
    expect(leftovers('services-dying-test')).toBe('');
  }, 600_000);
});
