/**
 * Whose failure a stopped service is, end to end through the real bench: the agent brings the
 * `api` sidecar down with a request (GET /crash makes it exit) and then writes the right answer,
 * and the trial is a failure of the agent's (agent_fault `service_stopped`), measured, never an
 * infrastructure error it could hide behind; a service that never became healthy before the first
 * turn stays an infrastructure error, not measured.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTaskFolder } from '../../src/catalogue/native/load.js';
import type { Task } from '../../src/tasks/types.js';
import { benchWithScript, only } from './bench-harness.js';
import { done, exec, fetch, write } from './service-replies.js';

const FIXTURE = join(import.meta.dirname, 'fixtures/services-native');

describe.sequential('a service that stops', () => {
  it('crashed by the agent’s request: the agent’s failure (service_stopped), even with the right answer', async () => {
    const result = only(
      await benchWithScript({
        tasks: [loadTaskFolder(FIXTURE)],
        script: [
          exec(`${fetch('http://api:8000/secret')} > answer.txt`),
          exec(fetch('http://api:8000/crash')),
          done,
        ],
      }),
    );
    const trial = result.trials[0];
    expect(trial?.status, trial?.failure_reason ?? '').toBe('failed');
    expect(trial?.passed).toBe(false);
    expect(trial?.error).toBeUndefined();
    expect(trial?.agent_fault).toMatchObject({
      kind: 'service_stopped',
      detail: expect.stringMatching(/service "api" stopped \(exited, exit code 3\)/),
    });
  }, 600_000);

  it('never healthy before the first turn: an infrastructure error, not measured', async () => {
    const task = loadTaskFolder(FIXTURE);
    const [api] = task.environment.services?.services ?? [];
    if (api === undefined || task.environment.services === undefined)
      throw new Error('the fixture has a service');
    const unhealthy: Task = {
      ...task,
      environment: {
        ...task.environment,
        services: {
          ...task.environment.services,
          services: [
            {
              ...api,
              healthcheck: {
                test: ['CMD', 'false'],
                intervalMs: 200,
                timeoutMs: 1000,
                retries: 2,
                startPeriodMs: 0,
              },
            },
          ],
        },
      },
    };
    const run = await benchWithScript({ tasks: [unhealthy], script: [write('answer.txt', 'x'), done] });
    const trial = only(run).trials[0];
    expect(trial?.status).toBe('error');
    expect(trial?.agent_fault).toBeUndefined();
    expect(trial?.failure_reason).toMatch(/service "api" did not become ready: unhealthy/);
    // No turn was taken: the model was never asked.
    expect(run.requests).toHaveLength(0);
  }, 600_000);
});
