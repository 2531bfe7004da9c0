/** One CSV field, as every CSV report writes it. */
export function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  let s = String(value);
  // A leading = + - @ makes spreadsheets evaluate a model-chosen name as a formula.
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
