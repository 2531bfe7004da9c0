import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { checkServerCommand, serverCommandLine, serverLogName } from '../../src/ladder/server-command.js';
import { UsageError } from '../../src/util/errors.js';

describe('--server-cmd templates', () => {
  it('needs {model} and {port}, checked when given', () => {
    expect(() => checkServerCommand('llama-server -m {model} --port {port} --jinja')).not.toThrow();
    expect(() => checkServerCommand('llama-server -m {model}')).toThrow(UsageError);
    expect(() => checkServerCommand('llama-server --port 8080')).toThrow(/\{model\} and \{port\}/);
  });

  it('passes any path to the command as one literal argument', () => {
    const path = `/models/it's a $HOME "test" $(touch /tmp/pwned) $& \`x\`.gguf`;
    const line = serverCommandLine('printf "%s\\n" {model} {port}', path, 41234);
    expect(execFileSync('bash', ['-c', line], { encoding: 'utf8' })).toBe(`${path}\n41234\n`);
  });

  it('names the log after the model file and the ladder run', () => {
    expect(serverLogName('/m/Qwen3-4B-Q6_K.gguf', 'RUN')).toBe('servers/Qwen3-4B-Q6_K-RUN.log');
    expect(serverLogName('/m/odd name.gguf', 'RUN')).toMatch(/^servers\/odd-name-[0-9a-f]{6}-RUN\.log$/);
  });
});
