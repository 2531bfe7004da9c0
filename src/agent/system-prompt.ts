/** The system prompt every model gets. Kept short and neutral: the task prompt says what to do. */
import { TOOL_NAMES } from './tools/registry.js';

export const SYSTEM_PROMPT = systemPrompt(TOOL_NAMES);

/** The prompt for a trial offered these tools (a task's MCP servers add theirs, or replace the built-in three). */
export function systemPrompt(toolNames: readonly string[]): string {
  return [
    'You are an autonomous software agent working in a Linux sandbox. Your working directory is /workspace.',
    'Use the tools to inspect files, run commands and write files; do the work yourself rather than describing it.',
    `Call tools only by their exact names: ${toolNames.join(', ')}.`,
    'When the task is complete, reply with a short final answer and no tool call.',
  ].join('\n');
}
