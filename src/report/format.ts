/** Number and text formatting shared by the reports, so a value reads the same everywhere. */

/** Seconds as a short duration: "4.2s", "42s", "3.5m" (minutes from 120 s on). */
export function formatDuration(sec: number): string {
  if (sec < 10) return `${sec.toFixed(1)}s`;
  if (sec < 120) return `${Math.round(sec)}s`;
  return `${(sec / 60).toFixed(1)}m`;
}

/** Mean model+tool time per trial run (a result stores the sum). */
export function meanTrialSec(r: { elapsed_sec: number; trials_run: number }): number {
  return r.trials_run === 0 ? 0 : r.elapsed_sec / r.trials_run;
}

/** Fixed rounding that never prints "-0" (deterministic output for snapshots and diffs). */
export function fixed(x: number, digits: number): string {
  const s = x.toFixed(digits);
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
}

/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** XML text: HTML escaping plus the control characters XML 1.0 forbids. */
export function escapeXml(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters XML forbids
  return escapeHtml(text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, ''));
}

/** Cuts text to at most max characters, marking the cut. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Where a column shows a short name, the full name it stands for (results keep the full one). */
export function fullNamesNote(names: ReadonlyMap<string, string>): string[] {
  const shortened = [...names].filter(([full, short]) => full !== short);
  if (shortened.length === 0) return [];
  return ['', `Models by short name: ${shortened.map(([full, short]) => `${short} = ${full}`).join(' · ')}.`];
}
