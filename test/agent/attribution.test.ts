/**
 * Whose failure is it: each row of the README's table ("Whose failure is it"), through
 * attribute() and the Harbor verdict, and a whole trial whose tool stalls ending as a measured
 * failed trial, not an error.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadHarborFolder } from '../../src/catalogue/harbor/load.js';
import { harborVerdict } from '../../src/catalogue/harbor/verify.js';
import { createScriptedModel } from '../../src/models/scripted.js';
import { type ChatModel, ModelTimeoutError } from '../../src/models/types.js';
import { ContainerGoneError } from '../../src/sandbox/docker/raw-exec.js';
import { ExecStalled, ServiceStopped } from '../../src/sandbox/index.js';
import type { HarborVerifierRun } from '../../src/sandbox/types.js';
import { attribute } from '../../src/trial/attribution.js';
import { InfraError } from '../../src/util/errors.js';
import { memorySandbox } from '../helpers/memory-sandbox.js';
import { READ_NOTES, trial } from './trials.js';

const stalled = (user: 'agent' | 'checker' | 'root', answered: boolean) =>
  new ExecStalled('the sandbox did not finish `/bin/bash` within 60 s', user, answered);

describe('attribute: the agent’s failure or the harness’s', () => {
  it('an exec that stalled while the engine answered is the agent’s: a tool during its turns', () => {
    expect(attribute(stalled('agent', true), 'turns')).toEqual({
      charge: 'agent',
      fault: { kind: 'tool_stalled', detail: 'the sandbox did not finish `/bin/bash` within 60 s' },
    });
  });

  it('while judging: a check running its code (checker) is sabotaged, the harness’s own look timed out', () => {
    expect(attribute(stalled('checker', true), 'judging')).toMatchObject({
      charge: 'agent',
      fault: { kind: 'sabotaged_checks' },
    });
    expect(attribute(stalled('root', true), 'judging')).toMatchObject({
      charge: 'agent',
      fault: { kind: 'check_timeout' },
    });
  });

  it('a task’s service that stopped after the agent had turns is the agent’s: its requests reach it', () => {
    const err = new ServiceStopped('api', 'payments: service "api" stopped (exited, exit code 1)');
    expect(attribute(err, 'judging')).toEqual({
      charge: 'agent',
      fault: { kind: 'service_stopped', detail: 'payments: service "api" stopped (exited, exit code 1)' },
    });
  });

  it('an engine that did not answer, a container that stopped, or anything else is the harness’s', () => {
    expect(attribute(stalled('agent', false), 'turns').charge).toBe('harness');
    expect(attribute(new ContainerGoneError('sandbox container abc is not running'), 'turns').charge).toBe(
      'harness',
    );
    expect(attribute(new InfraError('Docker engine: exec failed'), 'judging')).toEqual({
      charge: 'harness',
      reason: 'Docker engine: exec failed',
    });
    expect(attribute(new TypeError('a bug'), 'judging').charge).toBe('harness');
  });
});

describe('a Harbor verifier that gives no trustworthy reward fails the trial', () => {
  const task = loadHarborFolder(join(import.meta.dirname, '../tasks/fixtures/harbor/sound'));
  const run = (over: Partial<HarborVerifierRun>): HarborVerifierRun => ({
    reward: { ok: true, reward: 1, metrics: {} },
    exitCode: 0,
    timedOut: false,
    tampered: null,
    output: '',
    ...over,
  });

  it('out of time (a FIFO where test.sh reads): check_timeout', () => {
    const v = harborVerdict(task, run({ timedOut: true, reward: { ok: false, problem: 'no file' } }));
    expect(v.passed).toBe(false);
    expect(v.fault?.kind).toBe('check_timeout');
    expect(v.flags.reward?.reached).toBe(false);
  });

  it('a reward refused as not the verifier’s own: sabotaged_checks, whatever it said', () => {
    const v = harborVerdict(
      task,
      run({ tampered: 'reward.txt was last written by a process that outlived test.sh' }),
    );
    expect(v.passed).toBe(false);
    expect(v.score).toBe(0);
    expect(v.fault?.kind).toBe('sabotaged_checks');
  });

  it('a trustworthy reward has no fault', () => {
    expect(harborVerdict(task, run({})).fault).toBeUndefined();
  });
});

describe('a whole trial whose tool stalls', () => {
  it('is a measured failed trial with its reason when the engine answered, an error when not', async () => {
    const model = () =>
      createScriptedModel('m', [
        { calls: [{ name: 'execute_command', arguments: { command: 'ls' } }] },
        { text: 'done', calls: [] },
      ]);
    const throwing = (answered: boolean) => {
      const sandbox = memorySandbox();
      sandbox.runCommand = async () => {
        throw stalled('agent', answered);
      };
      return sandbox;
    };
    const { record: failed } = await trial({ model: model(), sandbox: throwing(true) });
    expect(failed.status).toBe('failed');
    expect(failed.end_reason).toBe('tool_stalled');
    expect(failed.agent_fault?.kind).toBe('tool_stalled');
    expect(failed.failure_reason).toMatch(/^tool_stalled: the sandbox did not finish/);
    expect(Object.keys(failed.flags)).toEqual(READ_NOTES.flags.map((f) => f.id));
    expect(failed.turns).toBe(1);

    const { record: errored } = await trial({ model: model(), sandbox: throwing(false) });
    expect(errored.status).toBe('error');
    expect(errored.error?.kind).toBe('harness');
    expect(errored.turns).toBe(1);
  });
});

describe('a whole trial whose model request times out', () => {
  const timingOut = (): ChatModel => {
    let asked = 0;
    return {
      name: 'm',
      async complete() {
        asked++;
        if (asked === 1)
          return {
            text: '',
            toolCalls: [{ id: 'c1', name: 'list_dir', rawArguments: '{}', arguments: {}, source: 'native' }],
            usage: null,
            finishReason: 'length',
            latencyMs: 1,
            retries: [],
            malformed: null,
          };
        throw new ModelTimeoutError('timed out: waited 15.0 s (the server still answers)', 15_000, []);
      },
    };
  };

  it("is a measured failed trial (request_timeout) when the server answered: the model's failure", async () => {
    const { record } = await trial({ model: timingOut(), sandbox: memorySandbox() });
    expect(record.status).toBe('failed');
    expect(record.error).toBeUndefined();
    expect(record.end_reason).toBe('request_timeout');
    expect(record.agent_fault).toEqual({
      kind: 'request_timeout',
      detail: 'timed out: waited 15.0 s (the server still answers)',
    });
    expect(record.failure_reason).toMatch(/^request_timeout: timed out: waited 15\.0 s/);
    expect(Object.keys(record.flags)).toEqual(READ_NOTES.flags.map((f) => f.id));
    // The reply the server cut at the reply bound is counted.
    expect(record.length_cut_replies).toBe(1);
  });
});
