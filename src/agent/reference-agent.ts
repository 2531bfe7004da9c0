/**
 * A task's own agent for its reference solution, as Harbor resolves its oracle: an agent, not a
 * special case of the trial. A model replaying the reference solution (`--model oracle`, a
 * reference baseline, validate's oracle row) on a task with a reference agent (Harbor's solve.sh,
 * run as root with solution/ at /solution) is offered the sandbox's tools with `execute_command`
 * running the agent's one command as that agent; any other command runs as the agent user, as
 * usual. Every call goes through the one dispatcher, so the trial's condition, the log and the
 * reply are the same as any tool's. A real model sending the same command gets the agent's shell
 * and no /solution.
 */
import type { ChatModel } from '../models/types.js';
import type { ReferenceAgent, WorkspaceTask } from '../tasks/types.js';
import { commandOutcome, executeCommand } from './tools/execute-command.js';
import type { RegisteredTool } from './tools/registry.js';

/** The tools `model` is offered on `task`: `tools` as they are, or with the reference agent's execute_command. */
export function agentTools(
  task: WorkspaceTask,
  model: ChatModel,
  tools: readonly RegisteredTool[],
): readonly RegisteredTool[] {
  const agent = task.referenceAgent;
  if (agent === undefined || model.replaysReference !== true) return tools;
  return tools.map((t) => (t.spec.name === executeCommand.spec.name ? referenceCommand(agent, t) : t));
}

/** execute_command as the reference agent's: its command runs as the agent, any other as `usual` runs it. */
function referenceCommand(agent: ReferenceAgent, usual: RegisteredTool): RegisteredTool {
  return {
    spec: usual.spec,
    prepare(args, sandbox, limits) {
      const prepared = usual.prepare(args, sandbox, limits);
      if (!prepared.ok || args.command !== agent.command) return prepared;
      return {
        ok: true,
        args: async () =>
          commandOutcome(
            await agent.run(sandbox),
            sandbox.cwd,
            limits,
            "solve.sh ran out of task.toml's agent timeout and was killed.",
          ),
      };
    },
  };
}
