/**
 * The optional transcript judge (`run --judge-model`): after a trial is judged deterministically,
 * an LLM grades its transcript against the task's instructions by the rubric (rubric.ts), and the
 * grade is recorded beside the verdict (`judge` of the trial), never in it: `passed`, `score` and
 * the flags are the harness's alone. A judge that fails (no reply, no grade in it) leaves a record
 * that says why, and the trial stands as judged.
 */
import type { ChatModel } from '../models/types.js';
import type { JudgeRecord, TrialRecord } from '../results/trial.js';
import type { Task } from '../tasks/types.js';
import { errorMessage } from '../util/errors.js';
import { readGrade, rubricMessages } from './rubric.js';
import { transcriptText } from './transcript.js';

/** The judge a run was given: its model on its server, one client per grade. */
export interface TranscriptJudge {
  model: string;
  /** Without credentials. */
  baseUrl: string | null;
  makeModel: () => ChatModel;
}

/** Whether a trial is graded: one the model played to its end (an error trial measured nothing). */
export function gradable(trial: TrialRecord): boolean {
  return trial.status !== 'error' && trial.turn_logs.length > 0;
}

export async function gradeTrial(
  judge: TranscriptJudge,
  task: Pick<Task, 'prompt' | 'meta'>,
  trial: TrialRecord,
  signal?: AbortSignal,
): Promise<JudgeRecord> {
  const base = { model: judge.model, base_url: judge.baseUrl };
  const messages = rubricMessages({
    instructions: task.prompt,
    description: task.meta.description,
    transcript: transcriptText(trial),
  });
  let text: string;
  try {
    text = (await judge.makeModel().complete(messages, [], signal)).text;
  } catch (err) {
    if (signal?.aborted) throw err;
    return {
      ...base,
      score: null,
      verdict: null,
      reason: '',
      error: `the judge's request failed: ${errorMessage(err)}`,
    };
  }
  const grade = readGrade(text);
  if ('error' in grade) return { ...base, score: null, verdict: null, reason: '', error: grade.error };
  return { ...base, ...grade };
}
