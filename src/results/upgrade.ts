/**
 * Brings a results file written by an older agent-bench up to the current schema before it is parsed,
 * so every reader sees one shape. Only what a newer version requires is filled in; a file that does
 * not fit even then is refused by the schema as usual.
 */
import { z } from 'zod';
import { type EndReason, MODEL_SERVER_FAILURE_KINDS } from './trial.js';
import { olderThan } from './version.js';

/** What a trial of schema 2.0 to 2.3 stored that tells why its turns ended. */
const LegacyTrial = z.object({
  status: z.string(),
  failure_reason: z.string().nullable(),
  final_answer: z.string().nullable(),
  error: z.object({ kind: z.string() }).optional(),
  dialogue: z.object({ end: z.string() }).optional(),
});
type LegacyTrial = z.infer<typeof LegacyTrial>;

/** The file as the current schema expects it; `raw` is not changed. */
export function upgradeResult(raw: object, version: string): object {
  if (!olderThan(version, '2.4') || !('trials' in raw) || !Array.isArray(raw.trials)) return raw;
  return { ...raw, trials: raw.trials.map(withEndReason) };
}

function withEndReason(trial: unknown): unknown {
  if (typeof trial !== 'object' || trial === null || 'end_reason' in trial) return trial;
  const facts = LegacyTrial.safeParse(trial);
  return facts.success ? { ...trial, end_reason: legacyEndReason(facts.data) } : trial;
}

/**
 * Why an older trial's turns ended, from the texts the loops wrote then (the only place those texts
 * are read). A trial whose text named tampering in place of its end, and gave no final answer, ran
 * out of turns or of agent time: it reads as max_turns.
 */
export function legacyEndReason(t: LegacyTrial): EndReason {
  const reason = t.failure_reason ?? '';
  if (t.status === 'error') {
    if (t.error !== undefined) return t.error.kind === 'harness' ? 'harness_error' : 'request_failed';
    // 2.0 and 2.1 had no `error`: a request failure's text opened with its kind.
    return MODEL_SERVER_FAILURE_KINDS.some((k) => reason.startsWith(`${k}:`))
      ? 'request_failed'
      : 'harness_error';
  }
  if (t.dialogue !== undefined) return t.dialogue.end === 'user_ended' ? 'user_ended' : 'max_turns';
  if (reason.startsWith('agent_timeout:')) return 'agent_timeout';
  if (reason === 'max_turns_exhausted') return 'max_turns';
  return t.final_answer === null ? 'max_turns' : 'final_answer';
}
