/**
 * The name the model calls an MCP server's tool by: `<server>__<tool>`, in the charset and length
 * OpenAI-compatible servers accept for a function name (`^[A-Za-z0-9_-]{1,64}$`). Any other
 * character becomes `_`; a name too long keeps its head and a short hash of the whole, so two long
 * names stay apart. Two tools that still come out the same are refused when the servers connect.
 */
import { createHash } from 'node:crypto';

const MAX_NAME = 64;

export function mcpToolName(server: string, tool: string): string {
  const name = `${sanitize(server)}__${sanitize(tool)}`;
  if (name.length <= MAX_NAME) return name;
  const hash = createHash('sha256').update(`${server}\0${tool}`).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX_NAME - hash.length - 1)}_${hash}`;
}

function sanitize(part: string): string {
  const clean = part.replace(/[^A-Za-z0-9_-]/g, '_');
  return clean === '' ? '_' : clean;
}
