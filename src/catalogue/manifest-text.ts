/**
 * The manifest's text as plain data: task.toml (TOML 1.0, read by smol-toml) or task.json, the same
 * keys either way. A syntax error is one line with where it is. TOML dates have no meaning in a
 * manifest; they come out as Date-like objects and the schema refuses them like any wrong type.
 */
import { parse, TomlError } from 'smol-toml';

export type ManifestText = { ok: true; value: unknown } | { ok: false; at: string; message: string };

export function parseManifestText(name: string, text: string): ManifestText {
  if (name.endsWith('.json')) {
    try {
      return { ok: true, value: JSON.parse(text) };
    } catch (err) {
      return { ok: false, at: '', message: `not valid JSON: ${(err as Error).message}` };
    }
  }
  try {
    return { ok: true, value: parse(text) };
  } catch (err) {
    if (!(err instanceof TomlError)) throw err;
    // smol-toml's message carries a code excerpt on the lines after the first.
    const first = (err.message.split('\n')[0] ?? '').replace(/^Invalid TOML document:\s*/, '');
    return { ok: false, at: `line ${err.line}, column ${err.column}`, message: `not valid TOML: ${first}` };
  }
}
