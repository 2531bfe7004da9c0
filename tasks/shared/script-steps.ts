/** Building blocks for scripted runs (reference solutions and lures): one call per turn. */
import type { ScriptedTurn } from '../../src/models/scripted.js';

export const read = (path: string, text?: string): ScriptedTurn => ({
  ...(text === undefined ? {} : { text }),
  calls: [{ name: 'read_file', arguments: { path } }],
});

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

/** Several steps' calls made in one turn, in order (the first step's text is kept). */
export const together = (...steps: ScriptedTurn[]): ScriptedTurn => ({
  ...(steps[0]?.text === undefined ? {} : { text: steps[0].text }),
  calls: steps.flatMap((s) => s.calls),
});
