/**
 * The Harbor oracle's call in a model run (src/agent/harbor-oracle.ts): a model replaying the
 * reference solution has its oracle call run as Harbor's oracle (task.harbor.oracle), any other
 * call as usual; a real model sending the very same command gets the agent's shell.
 */
import { describe, expect, it } from 'vitest';
import { harborOracleHook } from '../../src/agent/harbor-oracle.js';
import { createScriptedModel } from '../../src/models/scripted.js';
import type { ExecResult, Sandbox } from '../../src/sandbox/types.js';
import type { HarborTask } from '../../src/tasks/types.js';
import type { CallHook, ToolOutcome } from '../../src/trial/conditions/call-hook.js';

const LIMITS = {
  commandTimeoutMs: 1000,
  modelStdoutChars: 1000,
  modelStderrChars: 1000,
  readLimitBytes: 1000,
};
const sandbox = {} as Sandbox;
const ORACLE = 'bash /solution/solve.sh';

function task(ran: string[]): HarborTask {
  const result: ExecResult = {
    exitCode: 0,
    stdout: 'solved as root\n',
    stderr: '',
    stdoutCutBytes: 0,
    stderrCutBytes: 0,
    timedOut: false,
    elapsedMs: 5,
  };
  return {
    kind: 'harbor',
    harbor: {
      oracle: {
        command: ORACLE,
        run: async () => {
          ran.push('oracle');
          return result;
        },
      },
    },
  } as unknown as HarborTask;
}

const asAgent = async (): Promise<ToolOutcome> => ({
  log: {
    invalid: null,
    exit_code: 1,
    stdout: '',
    stderr: 'as the agent',
    truncated: false,
    timed_out: false,
    elapsed_ms: 1,
  },
  reply: 'as the agent',
});

/** The hook for a model replaying the reference solution, around the condition's hook `inner`. */
function oracleHook(ran: string[], inner?: CallHook): CallHook | undefined {
  return harborOracleHook(
    task(ran),
    createScriptedModel('oracle', [], { reference: true }),
    sandbox,
    LIMITS,
    inner,
  );
}

const call = (command: string) => ({
  name: 'execute_command',
  arguments: { command },
  cwd: '/workspace',
  turn: 1,
});

describe("a Harbor task's oracle call", () => {
  it('runs as Harbor’s oracle for a model replaying the reference solution, and only that call', async () => {
    const ran: string[] = [];
    const hook = oracleHook(ran);
    const oracle = await hook?.(call(ORACLE), asAgent);
    expect(ran).toEqual(['oracle']);
    expect(oracle?.log).toMatchObject({ exit_code: 0, stdout: 'solved as root\n', cwd: '/workspace' });
    expect(oracle?.reply).toBe('exit_code: 0\nstdout:\nsolved as root\n');
    expect((await hook?.(call('ls'), asAgent))?.reply).toBe('as the agent');
    expect(ran).toEqual(['oracle']);
  });

  it('never for a real model, even one sending the oracle’s command', async () => {
    const ran: string[] = [];
    const real = { name: 'qwen3:8b', complete: async () => ({}) } as never;
    expect(harborOracleHook(task(ran), real, sandbox, LIMITS, undefined)).toBeUndefined();
    expect(
      harborOracleHook(
        task(ran),
        createScriptedModel('baseline:random-tool', []),
        sandbox,
        LIMITS,
        undefined,
      ),
    ).toBeUndefined();
  });

  it('keeps the trial condition’s hook around the oracle’s run', async () => {
    const ran: string[] = [];
    const hook = oracleHook(ran, async (c, run) => {
      const o = await run();
      return { ...o, reply: `${o.reply}[seen by the condition: ${String(c.arguments.command)}]` };
    });
    expect((await hook?.(call(ORACLE), asAgent))?.reply).toMatch(
      /solved as root\n\[seen by the condition: bash \/solution\/solve.sh\]$/,
    );
  });
});
