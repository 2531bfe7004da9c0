/** Whole trials through the real loop on the in-memory file sandbox, with a model that records what it was sent. */

import { createScriptedModel, type ScriptedTurn } from '../../src/models/scripted.js';
import type { ChatMessage, ChatModel } from '../../src/models/types.js';
import type { RunCondition, TaskSlot } from '../../src/results/condition.js';
import type { TrialRecord } from '../../src/results/trial.js';
import { DISPATCH_LIMITS } from '../../src/run/settings.js';
import {
  FLAG_JUDGE,
  SANDBOX_ENVIRONMENT,
  type SandboxTask,
  type WorkspaceTask,
} from '../../src/tasks/types.js';
import { type MemorySandbox, memorySandbox } from '../helpers/memory-sandbox.js';
import { runWorkspaceTrial as runTrial } from '../helpers/workspace-trial.js';

/** A task that needs notes.txt read: its one flag is reached by a read_file of it that returned its text. */
export const READ_NOTES: SandboxTask = {
  kind: 'sandbox',
  id: 'read_notes_v1',
  meta: { domain: 'test', difficulty: 'easy', description: 'read notes', optimalSteps: 2 },
  prompt: 'Read notes.txt and say what it says.',
  maxTurns: 60,
  environment: SANDBOX_ENVIRONMENT,
  judge: FLAG_JUDGE,
  mountedFiles: [],
  allowedWrites: [],
  ignored: [],
  files: [{ path: 'notes.txt', content: 'the build is green\n' }],
  flags: [
    {
      id: 'read_notes',
      description: 'read_file of notes.txt returned its content',
      kind: 'outcome',
      check: (ctx) =>
        ctx.calls.some(
          (c) => c.name === 'read_file' && c.arguments?.path === 'notes.txt' && c.stdout.includes('green'),
        )
          ? { reached: true, turn: null }
          : { reached: false },
    },
  ],
  referenceSolution: [
    { calls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
    { text: 'It says the build is green.', calls: [] },
  ],
};

/** The tool messages each request carried, in order: what the model was shown. */
export interface RecordingModel extends ChatModel {
  toolReplies(): string[];
}

export function recordingModel(name: string, turns: readonly ScriptedTurn[]): RecordingModel {
  const inner = createScriptedModel(name, turns);
  let last: readonly ChatMessage[] = [];
  return {
    name,
    complete(messages, tools, signal) {
      last = [...messages];
      return inner.complete(messages, tools, signal);
    },
    toolReplies: () => last.flatMap((m) => (m.role === 'tool' ? [m.content] : [])),
  };
}

export async function trial(o: {
  task?: WorkspaceTask;
  model: ChatModel;
  condition?: RunCondition;
  index?: number;
  sandbox?: MemorySandbox;
  slot?: TaskSlot;
}): Promise<{ record: TrialRecord; sandbox: MemorySandbox }> {
  const sandbox = o.sandbox ?? memorySandbox();
  const record = await runTrial({
    index: o.index ?? 0,
    task: o.task ?? READ_NOTES,
    model: o.model,
    sandbox,
    maxTurns: (o.task ?? READ_NOTES).maxTurns,
    limits: { ...DISPATCH_LIMITS, commandTimeoutMs: 5000 },
    ...(o.condition === undefined ? {} : { condition: o.condition }),
    ...(o.slot === undefined ? {} : { slot: o.slot }),
  });
  return { record, sandbox };
}

export const noisy = (failure_rate: number, fault_timeout_sec = 0.01): RunCondition => ({
  name: 'noisy',
  failure_rate,
  fault_timeout_sec,
});
