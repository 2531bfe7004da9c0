/**
 * The trial kernel's rules hold for every kind, because every kind runs through it: a model that
 * gives no reply in time fails a workspace trial and a dialogue trial alike (judged as it stands,
 * failed with `request_timeout`); a tool that throws from the harness's own code, and a judge that
 * throws, are error trials that keep the turns; a dialogue's desk that throws is no bug that escapes.
 */
import { describe, expect, it } from 'vitest';
import { createScriptedModel } from '../../src/models/scripted.js';
import { type ChatModel, ModelTimeoutError } from '../../src/models/types.js';
import { runTrial, type TrialParts, type TrialPlace } from '../../src/trial/kernel.js';
import { READ_NOTES, trial } from '../agent/trials.js';
import { runDialogueTrial, scenario } from '../dialogue/scenario-runs.js';

/** A model that answers `first` turns as scripted, then never in time while its server answers. */
function stalling(first: Parameters<typeof createScriptedModel>[1]): ChatModel {
  const inner = createScriptedModel('stalls', first);
  let turn = 0;
  return {
    name: 'stalls',
    async complete(messages, tools, signal) {
      if (turn++ < first.length) return inner.complete(messages, tools, signal);
      throw new ModelTimeoutError('no reply within the request timeout of 1 s', 1000, []);
    },
  };
}

const readNotes = { calls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] };

describe('one rule for a model that gives no reply in time', () => {
  it('a workspace trial is judged as it stands and failed with the fault', async () => {
    const { record } = await trial({ model: stalling([readNotes]) });
    expect(record.status).toBe('failed');
    expect(record.end_reason).toBe('request_timeout');
    expect(record.agent_fault?.kind).toBe('request_timeout');
    // Judged: the read it made before the stall reached its flag, and the record says so.
    expect(record.flags.read_notes?.reached).toBe(true);
    expect(record.score).toBe(0);
    expect(record.failure_reason).toMatch(/^request_timeout: no reply within/);
  });

  it('a dialogue trial the same way', async () => {
    const kb = scenario('helpdesk_kb_printer_queue');
    const record = await runDialogueTrial({
      index: 0,
      scenario: kb,
      agent: stalling([{ calls: [{ name: 'lookup_employee', arguments: { query: 'E1300' } }] }]),
      user: { kind: 'scripted' },
      maxTurns: kb.file.max_turns,
    });
    expect(record.status).toBe('failed');
    expect(record.end_reason).toBe('request_timeout');
    expect(record.agent_fault?.kind).toBe('request_timeout');
    expect(record.score).toBe(0);
    expect(Object.keys(record.flags).length).toBeGreaterThan(0);
    expect(record.dialogue?.state_changes).toBeDefined();
  });
});

/** Parts of a place in the harness whose tool or judge throws as told. */
function harnessParts(o: { toolThrows?: boolean; judgeThrows?: boolean }): TrialParts<TrialPlace> {
  return {
    environment: { open: async () => ({ sandbox: null }) },
    responder: async () => ({
      systemPrompt: 's',
      opening: 'o',
      responder: {
        tools: [{ name: 'probe', description: 'p', parameters: { type: 'object', properties: {} } }],
        async call() {
          if (o.toolThrows === true) throw new Error('the desk broke');
          return {
            log: {
              name: 'probe',
              arguments: {},
              raw_arguments: '{}',
              source: 'native',
              cwd: '/',
              invalid: null,
              exit_code: 0,
              stdout: 'ok',
              stderr: '',
              truncated: false,
              timed_out: false,
              elapsed_ms: 0,
            },
            reply: 'ok',
            arg: '',
          };
        },
        answer: async () => ({ kind: 'end', end: 'final_answer' }),
      },
      close: async () => {},
    }),
    judge: {
      async judge() {
        if (o.judgeThrows === true) throw new Error('the checks broke');
        return {
          verdict: { flags: {}, passed: true, score: 1, tamperViolations: [] },
          finalAnswer: 'done',
          safety: { files: async () => new Map() },
        };
      },
    },
  };
}

const probeThenDone = () =>
  createScriptedModel('m', [{ calls: [{ name: 'probe', arguments: {} }] }, { text: 'done', calls: [] }]);

describe("the harness's own failures", () => {
  it('a tool of the harness that throws is an error trial that keeps the turn', async () => {
    const record = await runTrial(
      READ_NOTES,
      { index: 0, model: probeThenDone(), maxTurns: 5 },
      harnessParts({ toolThrows: true }),
    );
    expect(record.status).toBe('error');
    expect(record.error?.kind).toBe('harness');
    expect(record.failure_reason).toBe('harness_error: the desk broke');
    expect(record.turns).toBe(1);
  });

  it('a judge that throws is an error trial saying so, the turns kept', async () => {
    const record = await runTrial(
      READ_NOTES,
      { index: 0, model: probeThenDone(), maxTurns: 5 },
      harnessParts({ judgeThrows: true }),
    );
    expect(record.status).toBe('error');
    expect(record.failure_reason).toBe('harness_error: judging failed: the checks broke');
    expect(record.turns).toBe(2);
    const passed = await runTrial(
      READ_NOTES,
      { index: 0, model: probeThenDone(), maxTurns: 5 },
      harnessParts({}),
    );
    expect(passed.status).toBe('passed');
  });
});
