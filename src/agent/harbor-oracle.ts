/**
 * A Harbor task's oracle in a model run. A model replaying the reference solution (`--model
 * oracle`, a reference baseline) calls `execute_command` with the oracle's command; that one call
 * runs as Harbor's oracle runs (task.harbor.oracle: solution/ at /solution, solve.sh as root in the
 * image's WORKDIR), not as the agent. Any other call, and every call of a real model, runs as usual:
 * a model that sends the same command gets the agent's shell and no /solution.
 */
import type { ChatModel } from '../models/types.js';
import type { Sandbox } from '../sandbox/types.js';
import type { Task } from '../tasks/types.js';
import type { CallHook } from '../trial/conditions/call-hook.js';
import { commandOutcome } from './tools/execute-command.js';
import type { DispatchLimits } from './tools/tool.js';

/** The hook that runs the oracle's call, around the condition's own hook (if any); none when it does not apply. */
export function harborOracleHook(
  task: Task,
  model: ChatModel,
  sandbox: Sandbox,
  limits: DispatchLimits,
  inner: CallHook | undefined,
): CallHook | undefined {
  const oracle = task.kind === 'harbor' && model.replaysReference === true ? task.harbor.oracle : null;
  if (oracle === null) return inner;
  return (call, run) => {
    const isOracle = call.name === 'execute_command' && call.arguments.command === oracle.command;
    const runIt = isOracle
      ? async () =>
          commandOutcome(
            await oracle.run(sandbox),
            call.cwd,
            limits,
            "solve.sh ran out of task.toml's agent timeout and was killed.",
          )
      : run;
    return inner === undefined ? runIt() : inner(call, runIt);
  };
}
