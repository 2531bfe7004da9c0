/** The names MCP tools are offered by: prefixed by server, in the OpenAI function-name charset. */
import { describe, expect, it } from 'vitest';
import { mcpToolName } from '../../../src/agent/mcp/tool-names.js';

const OPENAI_NAME = /^[A-Za-z0-9_-]{1,64}$/;

describe('mcpToolName', () => {
  it('prefixes the tool with its server and a double underscore', () => {
    expect(mcpToolName('inventory', 'stock_level')).toBe('inventory__stock_level');
    expect(mcpToolName('mcp-server', 'get-weather')).toBe('mcp-server__get-weather');
  });

  it('turns every character outside the charset into an underscore', () => {
    expect(mcpToolName('user.server', 'ask user/now')).toBe('user_server__ask_user_now');
    expect(mcpToolName('é', 'x')).toBe('___x');
    expect(mcpToolName('s', '')).toBe('s___');
  });

  it('cuts a long name to 64 characters and keeps two long names apart by a hash of the whole', () => {
    const long = 'a'.repeat(80);
    const one = mcpToolName('server', `${long}1`);
    const two = mcpToolName('server', `${long}2`);
    expect(one).toMatch(OPENAI_NAME);
    expect(two).toMatch(OPENAI_NAME);
    expect(one).toHaveLength(64);
    expect(one).not.toBe(two);
    expect(one.startsWith('server__aaaa')).toBe(true);
  });
});
