/** write_file: a whole file replaced (parents created); a call without path or content saves nothing. */
import { type AgentTool, fileError, stringArg } from './tool.js';

export const writeFile: AgentTool<{ path: string; content: string }> = {
  spec: {
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

  parse(args) {
    const path = stringArg(args, 'path');
    if (path === null || path.trim() === '')
      return {
        ok: false,
        message:
          'Error: write_file requires a string argument "path" (e.g. {"path": "main.py", "content": "..."}). ' +
          'Your content was NOT saved: call write_file again with both "path" and "content".',
      };
    const content = args.content;
    if (typeof content !== 'string')
      return {
        ok: false,
        message:
          'Error: write_file requires a string argument "content" with the complete file text. Nothing was saved: ' +
          'call write_file again with both "path" and "content".',
      };
    return { ok: true, args: { path, content } };
  },

  async run({ path, content }, sandbox) {
    const started = Date.now();
    const r = await sandbox.writeFile(path, content);
    const elapsed_ms = Date.now() - started;
    if (!r.ok) return fileError(r.error, elapsed_ms);
    const message = `Wrote ${r.bytes} bytes to ${r.path}.`;
    return {
      log: {
        invalid: null,
        exit_code: 0,
        stdout: message,
        stderr: '',
        truncated: false,
        timed_out: false,
        elapsed_ms,
      },
      reply: message,
    };
  },
};
