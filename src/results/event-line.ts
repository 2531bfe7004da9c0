/** Parses one line of events.jsonl; a partial, foreign or newer-shaped line is null, never fatal. */
import type { LoggedEvent } from './events.js';
import { LoggedEventSchema } from './schema.js';

export function parseEventLine(line: string): LoggedEvent | null {
  if (line.trim() === '') return null;
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return null;
  }
  const parsed = LoggedEventSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}
