/** Building blocks for scripted runs (reference solutions and lures): one call per turn. */
import type { ScriptedTurn } from '../../src/models/scripted.js';

export const write = (path: string, content: string, text?: string): ScriptedTurn => ({
  ...(text === undefined ? {} : { text }),
  calls: [{ name: 'write_file', arguments: { path, content } }],
});

export const exec = (command: string, text?: string): ScriptedTurn => ({
  ...(text === undefined ? {} : { text }),
  calls: [{ name: 'execute_command', arguments: { command } }],
});

/** A final answer: no calls. */
export const answer = (text: string): ScriptedTurn => ({ text, calls: [] });
