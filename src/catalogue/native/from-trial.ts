/**
 * A draft task folder from a trial that went wrong (`agent-bench task from-trial`), so a suite grows
 * from the failures its team saw. The draft is the trial's task as the trial started it (instruction,
 * starting workspace, hidden files, setup, reference solution) and the trial itself, replayed as a
 * lure. What only the author can say is left empty on purpose, so that `validate` lists it: what the
 * task measures (`meta.description`), the flags that catch the failure (`flags`), and which of them
 * the trial's replay must miss (`lures[0].expect.unreached`). TODO.md says the same in words; the
 * trial's turn log is kept beside it for reference.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ScriptedTurn } from '../../models/scripted.js';
import type { ResultFile } from '../../results/result-file.js';
import type { TrialRecord, TurnLog } from '../../results/trial.js';
import type { SandboxTask, SkillTask, Task, TaskFile } from '../../tasks/types.js';
import { HIDDEN_FILES_DIR } from './layout.js';

/** The lure that replays the trial. */
export const TRIAL_LURE_ID = 'seen_in_trial';

export interface DraftSource {
  result: ResultFile;
  /** The result's path, for the notes. */
  file: string;
  trial: TrialRecord;
  /** The task the trial ran, as this machine knows it (a sandbox or skill task: others have no workspace to draft). */
  task: SandboxTask | SkillTask;
}

/**
 * The task as a draft's source, or why it cannot be one: a task folder or a skill folder drafts as a
 * task folder; a Harbor task and a dialogue scenario are other formats with no workspace files to copy.
 */
export function draftable(task: Task): SandboxTask | SkillTask | { refused: string } {
  if (task.kind === 'sandbox' || task.kind === 'skill') return task;
  const what = task.kind === 'dialogue' ? 'dialogue' : 'Harbor';
  return { refused: `${task.id} is a ${what} task: from-trial drafts sandbox task folders only` };
}

/** Writes the draft into `dir` (which must be missing or empty) and returns the files it wrote. */
export function writeDraftTask(source: DraftSource, dir: string): string[] {
  const { task, trial } = source;
  const written: string[] = [];
  const put = (rel: string, content: string, mode?: number): void => {
    const path = join(dir, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content, mode === undefined ? {} : { mode });
    written.push(rel);
  };
  mkdirSync(dir, { recursive: true });
  put('task.json', `${JSON.stringify(draftManifest(source), null, 2)}\n`);
  put('instruction.md', task.prompt);
  for (const f of task.files) put(`files/${f.path}`, f.content, modeOf(f));
  for (const f of task.hiddenFiles ?? []) put(`${HIDDEN_FILES_DIR}/${f.path}`, f.content, modeOf(f));
  put('trial/turns.json', `${JSON.stringify(trial.turn_logs, null, 2)}\n`);
  put('TODO.md', todo(source));
  return written;
}

/** Whether `dir` can take a draft: missing, or an empty folder. */
export function isFreeFolder(dir: string): boolean {
  try {
    return readdirSync(dir).length === 0;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

function draftManifest({ result, trial, task, file }: DraftSource): Record<string, unknown> {
  return {
    id: `${task.id}_t${trial.index + 1}`.slice(0, 64),
    meta: {
      description: '',
      domain: task.meta.domain,
      difficulty: task.meta.difficulty,
    },
    max_turns: task.maxTurns,
    allowed_writes: task.allowedWrites,
    ignored: task.ignored,
    ...(task.setupCommands === undefined ? {} : { setup_commands: task.setupCommands }),
    ...(task.checkTimeoutSec === undefined ? {} : { check_timeout_sec: task.checkTimeoutSec }),
    flags: [],
    reference_solution: task.referenceSolution.map(scriptedTurn),
    lures: [
      {
        id: TRIAL_LURE_ID,
        description: `What ${result.model} did in ${file}, trial ${trial.index + 1} (${trial.status}${trial.failure_reason === null ? '' : `: ${trial.failure_reason}`}).`,
        script: replay(trial.turn_logs, trial.final_answer),
        expect: { unreached: [] },
      },
    ],
  };
}

/** The trial as a scripted run: each turn's text and the calls that were not refused, then the final answer. */
function replay(turns: readonly TurnLog[], finalAnswer: string | null): ScriptedTurn[] {
  const script: ScriptedTurn[] = turns
    .map((t) => ({
      ...(t.assistant_text === '' ? {} : { text: t.assistant_text }),
      calls: t.tool_calls
        .filter((c) => c.invalid === null && c.arguments !== null)
        .map((c) => ({ name: c.name, arguments: c.arguments ?? {} })),
    }))
    .filter((t) => t.calls.length > 0);
  // A run ends with an answer: the trial's own, or a plain one when it ran out of turns.
  script.push({ text: finalAnswer ?? 'Done.', calls: [] });
  return script;
}

function scriptedTurn(t: ScriptedTurn): ScriptedTurn {
  return { ...(t.text === undefined ? {} : { text: t.text }), calls: t.calls.map((c) => ({ ...c })) };
}

function modeOf(f: TaskFile): number | undefined {
  return f.mode === undefined || (f.mode & 0o111) === 0 ? undefined : 0o755;
}

function todo({ result, trial, task, file }: DraftSource): string {
  return `# Draft task from a trial

Made by \`agent-bench task from-trial\` from \`${file}\`, trial ${trial.index + 1}: ${result.model} on
\`${task.id}\`, ${trial.status}${trial.failure_reason === null ? '' : ` (${trial.failure_reason})`}.

It starts as that task started: \`instruction.md\`, \`files/\`, \`hidden/\`, the setup and the reference
solution are the task's${trial.variant === undefined ? '' : ` (instance \`${trial.variant}\` of its variants, the one the trial ran)`}. \`trial/turns.json\` is what the model did, turn by turn; the lure
\`${TRIAL_LURE_ID}\` in \`task.json\` replays it.

Still to do (\`agent-bench validate --tasks-dir <this folder>\` lists what is missing):
1. \`meta.description\`: what this task measures, in one sentence.
2. \`flags\`: the checks (see docs/tasks.md, "Writing a task"); at least one must catch the failure.
3. \`lures[0].expect.unreached\`: the flags the trial's replay must miss.
4. Change the instruction or the files if the failure needs another setting, then validate until
   the oracle passes, doing nothing fails, and the lure is caught.
`;
}
