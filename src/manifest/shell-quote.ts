/** Quoting for the command lines the harness builds (re-checks, image reads). */

/** One shell word, single-quoted. */
export function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}
