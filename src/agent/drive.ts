/**
 * The agent's turns: the turn engine (engine/turns.ts) with the sandbox answering the tool calls,
 * the workspace looked at after every turn that ran tools, and a reply without calls the final answer.
 */
import type { ChatModel } from '../models/types.js';
import type { EventSink } from '../results/events.js';
import type { Sandbox } from '../sandbox/types.js';
import { recordChanges } from '../scoring/snapshot-diff.js';
import { type CallHook, dispatchToolCall } from './dispatch.js';
import type { Responder } from './engine/responder.js';
import { type DrivenTurns, runTurns } from './engine/turns.js';
import { systemPrompt } from './system-prompt.js';
import { BUILTIN_TOOLS, type RegisteredTool } from './tools/registry.js';
import type { DispatchLimits } from './tools/tool.js';
import { summarizeArg } from './turn-log.js';

export interface DriveOptions {
  index: number;
  prompt: string;
  model: ChatModel;
  sandbox: Sandbox;
  maxTurns: number;
  limits: DispatchLimits;
  emit: EventSink;
  signal?: AbortSignal;
  /** The trial's condition at each call (noisy faults, adversarial payloads); none when clean. */
  hook?: CallHook;
  /** Agent time (model and tools, snapshots excluded) after which no new turn starts: a Harbor task's agent timeout. */
  timeLimitMs?: number;
  /** The tools offered (default the built-in three; a task's MCP servers add theirs or replace them). */
  tools?: readonly RegisteredTool[];
}

export interface AgentTurns extends DrivenTurns {
  /** Path → each turn that ran tools after which it differed from the look before, ascending (no listing per turn is kept). */
  changeTurns: Map<string, number[]>;
}

export async function driveTurns(o: DriveOptions): Promise<AgentTurns> {
  const tools = o.tools ?? BUILTIN_TOOLS;
  const { responder, changeTurns } = sandboxResponder(o.sandbox, o.limits, o.hook, tools);
  const turns = await runTurns({
    index: o.index,
    systemPrompt: systemPrompt(tools.map((t) => t.spec.name)),
    opening: o.prompt,
    model: o.model,
    responder,
    maxTurns: o.maxTurns,
    emit: o.emit,
    ...(o.signal === undefined ? {} : { signal: o.signal }),
    ...(o.timeLimitMs === undefined ? {} : { timeLimitMs: o.timeLimitMs }),
  });
  return { ...turns, changeTurns };
}

/** The sandbox's tools answer the calls; the snapshots after each turn are the harness's time. */
function sandboxResponder(
  sandbox: Sandbox,
  limits: DispatchLimits,
  hook: CallHook | undefined,
  tools: readonly RegisteredTool[],
): { responder: Responder; changeTurns: Map<string, number[]> } {
  const changeTurns = new Map<string, number[]>();
  const responder: Responder = {
    tools: tools.map((t) => t.spec),
    async call(call, turn) {
      const outcome = await dispatchToolCall(call, sandbox, limits, hook, turn, tools);
      return { ...outcome, arg: summarizeArg(outcome.log) };
    },
    answer: async () => ({ kind: 'end', end: 'final_answer' }),
    async endTurn(turn) {
      // Usually no exec: the turn's last command snapshotted the workspace as it ended.
      const changes = await sandbox.workspaceChanges();
      recordChanges(changeTurns, turn, changes.paths);
      // The snapshots' share of the turn (inside the commands or after them) is the harness's.
      return changes.snapshotMs;
    },
  };
  return { responder, changeTurns };
}
