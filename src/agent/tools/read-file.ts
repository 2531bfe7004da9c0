/** read_file: a text file from its beginning (or an offset), in parts of at most readLimitBytes. */
import { type AgentTool, fileError, intArg, stringArg } from './tool.js';

export const readFile: AgentTool<{ path: string; offset: number; limit: number | null }> = {
  spec: {
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

  parse(args) {
    const path = stringArg(args, 'path');
    if (path === null || path.trim() === '')
      return {
        ok: false,
        message: 'Error: read_file requires a string argument "path". Resend the call with {"path": "..."}.',
      };
    return { ok: true, args: { path, offset: intArg(args, 'offset') ?? 0, limit: intArg(args, 'limit') } };
  },

  async run({ path, offset, limit }, sandbox, limits) {
    const started = Date.now();
    const r = await sandbox.readFile(path, {
      offset,
      limit: Math.min(limit ?? limits.readLimitBytes, limits.readLimitBytes),
    });
    const elapsed_ms = Date.now() - started;
    if (!r.ok) return fileError(r.error, elapsed_ms);
    const end = r.offset + Buffer.byteLength(r.content);
    const note = r.truncated
      ? `\n[read_file: showing bytes ${r.offset}-${end} of ${r.totalBytes}. Call read_file with {"path": ${JSON.stringify(path)}, "offset": ${end}} to read more.]`
      : '';
    // Stored as shown (at most readLimitBytes): reads are judged on what the model saw.
    return {
      log: {
        invalid: null,
        exit_code: 0,
        stdout: r.content,
        stderr: '',
        truncated: r.truncated,
        timed_out: false,
        elapsed_ms,
      },
      reply: r.content + note,
    };
  },
};
