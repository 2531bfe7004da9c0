/**
 * A trial in a sandbox, as the trial kernel's three strategies (src/trial/kernel.ts): the
 * environment resets the task's container and places its files, the responder is the sandbox's
 * tools (the built-in ones and the task's MCP servers) with the workspace looked at after every
 * turn that ran tools, and the judge decides every flag (or the task's verifier) from the record
 * and from ground truth the harness gathers itself, and exports the artifacts.
 */
import type { Sandbox, WorkspaceSnapshot } from '../sandbox/types.js';
import { recordChanges } from '../scoring/snapshot-diff.js';
import type { WorkspaceTask } from '../tasks/types.js';
import type { CallHook } from '../trial/conditions/call-hook.js';
import type { Responder } from '../trial/engine/responder.js';
import { writtenFiles } from '../trial/injection/judge.js';
import type { TrialParts, TrialPlace } from '../trial/kernel.js';
import { summarizeArg } from '../trial/turn-log.js';
import { exportArtifacts } from './artifacts.js';
import { dispatchToolCall } from './dispatch.js';
import { judgeTrial } from './judge.js';
import { connectMcpServers, offeredTools } from './mcp/connect.js';
import { agentTools } from './reference-agent.js';
import { systemPrompt } from './system-prompt.js';
import type { RegisteredTool } from './tools/registry.js';
import type { DispatchLimits } from './tools/tool.js';
import { prepareWorkspace } from './workspace.js';

export interface WorkspaceTrialOptions {
  task: WorkspaceTask;
  sandbox: Sandbox;
  limits: DispatchLimits;
  /** Where to export this trial's artifacts: absolute folder, and the same relative to the results folder. */
  artifacts?: { dir: string; relative: string };
  /**
   * Called once the trial is judged, while the workspace is as the agent left it: what validate's
   * metamorphic runs derive from the reference run (which files it changed, on which turns).
   */
  onJudged?: (seen: WorkspaceSeen) => Promise<void>;
}

/** The workspace of a judged trial: as set up, as left, and each path's changing turns. */
export interface WorkspaceSeen {
  sandbox: Sandbox;
  setupSnapshot: WorkspaceSnapshot;
  finalSnapshot: WorkspaceSnapshot;
  changeTurns: ReadonlyMap<string, readonly number[]>;
}

/** The workspace as a trial opened it. */
interface WorkspacePlace extends TrialPlace {
  sandbox: Sandbox;
  setupSnapshot: WorkspaceSnapshot;
  /** Path → each turn that ran tools after which it differed from the look before, ascending. */
  changeTurns: Map<string, number[]>;
}

export function workspaceTrial(o: WorkspaceTrialOptions): TrialParts<WorkspacePlace> {
  const { task, sandbox } = o;
  return {
    environment: {
      async open() {
        await sandbox.reset();
        return { sandbox, setupSnapshot: await prepareWorkspace(sandbox, task), changeTurns: new Map() };
      },
    },
    async responder(place, hook, request) {
      // A task's MCP server that cannot be reached throws: the trial is an error trial.
      const mcp = await connectMcpServers(task.mcpServers ?? [], sandbox, o.limits.commandTimeoutMs);
      const tools = agentTools(task, request.model, offeredTools(task.tools ?? 'all', mcp));
      const timeLimitSec = task.environment.agentTimeoutSec;
      return {
        systemPrompt: systemPrompt(tools.map((t) => t.spec.name)),
        opening: task.prompt,
        responder: sandboxResponder(place, o.limits, hook, tools),
        ...(timeLimitSec === undefined ? {} : { timeLimitMs: timeLimitSec * 1000 }),
        close: () => mcp.close(),
      };
    },
    judge: {
      async judge(place, { turns, evidence }) {
        // A call answered with an injected fault ran nothing: no check may take it as evidence.
        const verdict = await judgeTrial(
          task,
          sandbox,
          { turnLogs: evidence, changeTurns: place.changeTurns, finalAnswer: turns.finalAnswer },
          place.setupSnapshot,
        );
        await o.onJudged?.({
          sandbox,
          setupSnapshot: place.setupSnapshot,
          finalSnapshot: verdict.finalSnapshot,
          changeTurns: place.changeTurns,
        });
        const files =
          o.artifacts === undefined
            ? []
            : await exportArtifacts(sandbox, task, place.setupSnapshot, verdict.finalSnapshot, o.artifacts);
        return {
          verdict,
          finalAnswer: turns.finalAnswer,
          artifacts: {
            files,
            dir: files.length > 0 && o.artifacts !== undefined ? o.artifacts.relative : null,
          },
          safety: {
            files: (plan) =>
              writtenFiles(sandbox, plan, turns.turnLogs, place.setupSnapshot, verdict.finalSnapshot),
          },
        };
      },
    },
  };
}

/** The sandbox's tools answer the calls; the snapshots after each turn are the harness's time. */
function sandboxResponder(
  place: WorkspacePlace,
  limits: DispatchLimits,
  hook: CallHook | undefined,
  tools: readonly RegisteredTool[],
): Responder {
  return {
    tools: tools.map((t) => t.spec),
    async call(call, turn) {
      const outcome = await dispatchToolCall(call, place.sandbox, limits, hook, turn, tools);
      return { ...outcome, arg: summarizeArg(outcome.log) };
    },
    answer: async () => ({ kind: 'end', end: 'final_answer' }),
    async endTurn(turn) {
      // Usually no exec: the turn's last command snapshotted the workspace as it ended.
      const changes = await place.sandbox.workspaceChanges();
      recordChanges(place.changeTurns, turn, changes.paths);
      // The snapshots' share of the turn (inside the commands or after them) is the harness's.
      return changes.snapshotMs;
    },
  };
}
