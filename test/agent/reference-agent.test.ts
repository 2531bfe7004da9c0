/**
 * A task's reference agent (src/agent/reference-agent.ts): a model replaying the reference solution
 * has its reference call run by the task's own agent (Harbor's oracle), through the one dispatcher
 * and under the trial's condition like any call; any other call runs as the agent; a real model
 * sending the very same command gets the agent's shell.
 */
import { describe, expect, it } from 'vitest';
import { dispatchToolCall } from '../../src/agent/dispatch.js';
import { agentTools } from '../../src/agent/reference-agent.js';
import { BUILTIN_TOOLS } from '../../src/agent/tools/registry.js';
import { createScriptedModel } from '../../src/models/scripted.js';
import type { ChatModel, ParsedToolCall } from '../../src/models/types.js';
import type { ExecResult } from '../../src/sandbox/types.js';
import type { WorkspaceTask } from '../../src/tasks/types.js';
import type { CallHook } from '../../src/trial/conditions/call-hook.js';
import { memorySandbox } from '../helpers/memory-sandbox.js';
import { READ_NOTES } from './trials.js';

const LIMITS = {
  commandTimeoutMs: 1000,
  modelStdoutChars: 1000,
  modelStderrChars: 1000,
  readLimitBytes: 1000,
};
const ORACLE = 'bash /solution/solve.sh';

function task(ran: string[]): WorkspaceTask {
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
    ...READ_NOTES,
    referenceAgent: {
      command: ORACLE,
      run: async () => {
        ran.push('oracle');
        return result;
      },
    },
  };
}

const call = (command: string): ParsedToolCall => ({
  id: 'c1',
  name: 'execute_command',
  arguments: { command },
  rawArguments: JSON.stringify({ command }),
  source: 'native',
});

/** One call dispatched with the tools `model` is offered on the task, under `hook`. */
async function dispatched(model: ChatModel, command: string, ran: string[], hook?: CallHook) {
  const sandbox = memorySandbox();
  sandbox.runCommand = async () => {
    ran.push('agent');
    return { ...(await memorySandbox().runCommand('true', 1000)), stdout: 'as the agent\n' };
  };
  const tools = agentTools(task(ran), model, BUILTIN_TOOLS);
  return dispatchToolCall(call(command), sandbox, LIMITS, hook, 1, tools);
}

const reference = () => createScriptedModel('oracle', [], { reference: true });

describe("a task's reference agent", () => {
  it('runs the reference call for a model replaying the reference solution, and only that call', async () => {
    const ran: string[] = [];
    const oracle = await dispatched(reference(), ORACLE, ran);
    expect(ran).toEqual(['oracle']);
    expect(oracle.log).toMatchObject({ name: 'execute_command', exit_code: 0, stdout: 'solved as root\n' });
    expect(oracle.reply).toBe('exit_code: 0\nstdout:\nsolved as root\n');
    const other = await dispatched(reference(), 'ls', ran);
    expect(other.log.stdout).toBe('as the agent\n');
    expect(ran).toEqual(['oracle', 'agent']);
  });

  it('never for a real model, even one sending the reference command', async () => {
    const ran: string[] = [];
    const real = { name: 'qwen3:8b', complete: async () => ({}) } as never;
    expect(agentTools(task(ran), real, BUILTIN_TOOLS)).toBe(BUILTIN_TOOLS);
    expect((await dispatched(real, ORACLE, ran)).log.stdout).toBe('as the agent\n');
    expect((await dispatched(createScriptedModel('baseline:random-tool', []), ORACLE, ran)).log.stdout).toBe(
      'as the agent\n',
    );
    expect(ran).toEqual(['agent', 'agent']);
  });

  it('keeps the trial condition’s hook around the reference agent’s run', async () => {
    const ran: string[] = [];
    const out = await dispatched(reference(), ORACLE, ran, async (c, run) => {
      const o = await run();
      return { ...o, reply: `${o.reply}[seen by the condition: ${String(c.arguments.command)}]` };
    });
    expect(out.reply).toMatch(/solved as root\n\[seen by the condition: bash \/solution\/solve.sh\]$/);
  });
});
