/** The words of progress (pure): where each trial in flight is, how far the run is, and how long it has to go. */

import type { RunningTrial } from '../results/run-status.js';

/** A trial in flight, as the progress line shows it (the same record the --status-file holds). */
export type TrialPlace = RunningTrial;

export interface RunStatus {
  running: readonly TrialPlace[];
  /** Trials this run has finished, of those it will run (resumed trials are in neither). */
  done: number;
  total: number;
  elapsedMs: number;
  /** null: not known yet. */
  leftMs: number | null;
}

/** `task 2/5 fix_bug_v1 · trial 3/5` */
export function trialLabel(p: Omit<TrialPlace, 'turn' | 'maxTurns'>): string {
  return `task ${p.taskNo}/${p.tasks} ${p.taskId} · trial ${p.trial}/${p.k}`;
}

/** `task 2/5 fix_bug_v1 · trial 3/5 · turn 4/30` */
function placeLabel(p: TrialPlace): string {
  return `${trialLabel(p)} · turn ${p.turn}/${p.maxTurns}`;
}

/** `12/25 trials · 5m02s elapsed · ~6m10s left` */
export function runTally(s: Omit<RunStatus, 'running'>): string {
  const left = s.leftMs === null ? 'estimating time left' : `~${formatDuration(s.leftMs)} left`;
  return `${s.done}/${s.total} trials · ${formatDuration(s.elapsedMs)} elapsed · ${left}`;
}

/**
 * One line for the whole run: the trial in flight, or all of them (`2 running: … | …`), then the
 * tally. Fitted to `width` by leaving out trials (`+n more`), then cutting the trial's place, the tally last.
 */
export function statusLine(s: RunStatus, width = Number.POSITIVE_INFINITY): string {
  const tail = ` · ${runTally(s)}`;
  const places = s.running.map(placeLabel);
  if (places.length === 0) return clip(`preparing${tail}`, width);
  const head = places.length === 1 ? '' : `${places.length} running: `;
  for (let shown = places.length; shown > 1; shown--) {
    const more = shown < places.length ? ` | +${places.length - shown} more` : '';
    const line = `${head}${places.slice(0, shown).join(' | ')}${more}${tail}`;
    if (line.length <= width) return line;
  }
  const more = places.length > 1 ? ` | +${places.length - 1} more` : '';
  // The tally is what a narrow terminal keeps: the trial's place is cut first.
  const room = width - tail.length;
  if (room >= 20) return `${clip(`${head}${places[0]}`, room - more.length)}${more}${tail}`;
  return clip(`${head}${places[0]}${more}${tail}`, width);
}

/** 42s, 5m02s, 1h05m. */
export function formatDuration(ms: number): string {
  const secs = Math.max(0, Math.round(ms / 1000));
  if (secs < 60) return `${secs}s`;
  const mins = Math.floor(secs / 60);
  if (mins < 60) return `${mins}m${pad2(secs % 60)}s`;
  return `${Math.floor(mins / 60)}h${pad2(mins % 60)}m`;
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

function clip(line: string, width: number): string {
  return line.length <= width ? line : `${line.slice(0, Math.max(0, width - 1))}…`;
}
