import type { ToolSpec } from '../models/types.js';

const TOOL_NAMES = ['execute_command', 'read_file', 'write_file'] as const;

/** The published tool contract of agent-bench: names and arguments are part of the results format. */
export const TOOL_SPECS: readonly ToolSpec[] = [
  {
    name: 'execute_command',
    description:
      'Run a shell command (bash) in the sandbox. Files and the current directory persist between calls; ' +
      'environment variables do not. Returns the exit code, stdout and stderr.',
    parameters: {
      type: 'object',
      properties: { command: { type: 'string', description: 'The shell command to run.' } },
      required: ['command'],
    },
  },
  {
    name: 'read_file',
    description:
      'Read a text file and return its contents from the beginning. Long files are returned in parts: ' +
      'pass offset (in bytes) to read further.',
    parameters: {
      type: 'object',
      properties: {
        path: {
          type: 'string',
          description: 'Path of the file, absolute or relative to the current directory.',
        },
        offset: { type: 'integer', description: 'Byte offset to start reading at (default 0).' },
        limit: { type: 'integer', description: 'Maximum number of bytes to return.' },
      },
      required: ['path'],
    },
  },
  {
    name: 'write_file',
    description: 'Write content to a file (replacing it), creating parent directories if needed.',
    parameters: {
      type: 'object',
      properties: {
        path: {
          type: 'string',
          description: 'Path of the file, absolute or relative to the current directory.',
        },
        content: { type: 'string', description: 'The complete new content of the file.' },
      },
      required: ['path', 'content'],
    },
  },
];

export const VALID_TOOLS_LIST = TOOL_NAMES.join(', ');
