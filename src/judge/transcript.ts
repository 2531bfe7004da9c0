/**
 * A trial's transcript as the judge reads it: what the agent was told, said and did, turn by turn
 * (its messages, its tool calls with their arguments and what they returned, the user's replies),
 * as plain text within a size a small local model's context holds. Long outputs keep their head
 * and tail, and a transcript too long as a whole keeps its first and last turns.
 */
import type { TrialRecord } from '../results/trial.js';

/** What one tool result may take of the transcript: its head and tail stay. */
const OUTPUT_CHARS = 1200;
/** The transcript as a whole: about 8k tokens. */
const TRANSCRIPT_CHARS = 32_000;

export function transcriptText(trial: Pick<TrialRecord, 'turn_logs' | 'dialogue'>): string {
  const parts: string[] = [];
  if (trial.dialogue !== undefined) parts.push(`USER: ${trial.dialogue.opening}`);
  for (const turn of trial.turn_logs) {
    const lines: string[] = [];
    if (turn.assistant_text.trim() !== '') lines.push(`AGENT: ${turn.assistant_text.trim()}`);
    for (const call of turn.tool_calls) {
      lines.push(`AGENT CALLS ${call.name}(${JSON.stringify(call.arguments ?? call.raw_arguments ?? null)})`);
      const out = [call.stdout, call.stderr].filter((s) => s !== '').join('\n');
      lines.push(`RESULT (exit ${call.exit_code ?? 'none'}): ${cut(out, OUTPUT_CHARS)}`);
    }
    if (turn.user_reply !== undefined) lines.push(`USER: ${turn.user_reply.text}`);
    parts.push(`--- turn ${turn.turn} ---\n${lines.join('\n')}`);
  }
  return cut(parts.join('\n'), TRANSCRIPT_CHARS);
}

/** `text` within `max` characters: its head and tail, the middle replaced by a marker. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const half = Math.floor((max - 40) / 2);
  return `${text.slice(0, half)}\n[… ${text.length - 2 * half} characters cut …]\n${text.slice(-half)}`;
}
