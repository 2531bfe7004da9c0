/**
 * Harbor's `[[environment.mcp_servers]]` as the cookbook's `mcp-tools` and `simulated-user` recipes
 * write it (task.toml texts written here in the same form, not copied): the servers load and become
 * the task's, no longer named as ignored; a transport agent-bench cannot speak makes the task
 * unusable with one line that says so.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { harborFormat } from '../../../src/catalogue/format-harbor.js';
import { harborAsTask } from '../../../src/catalogue/harbor/as-task.js';
import { loadHarborFolder } from '../../../src/catalogue/harbor/load.js';

const SOUND = join(import.meta.dirname, '..', 'fixtures', 'harbor', 'sound');
const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

/** The sound fixture with this task.toml. */
function harborWith(toml: string, name: string): string {
  const root = mkdtempSync(join(tmpdir(), 'agent-bench-harbor-mcp-'));
  roots.push(root);
  const dir = join(root, name);
  cpSync(SOUND, dir, { recursive: true });
  writeFileSync(join(dir, 'task.toml'), toml);
  return dir;
}

/** The recipes' form: a streamable-HTTP server named for its compose service, on port 8000. */
const recipe = (server: string) => `version = "1.0"

[verifier]
timeout_sec = 300.0

[agent]
timeout_sec = 300.0

[environment]
build_timeout_sec = 300.0
cpus = 1
memory_mb = 1024

[[environment.mcp_servers]]
name = "${server}"
transport = "streamable-http"
url = "http://${server}:8000/mcp"
`;

describe('[[environment.mcp_servers]]', () => {
  it.each([
    ['mcp-tools', 'mcp-server'],
    ['simulated-user', 'user-server'],
  ])('the %s recipe’s server loads and its tools are the task’s', (recipeName, server) => {
    const h = loadHarborFolder(harborWith(recipe(server), recipeName));
    expect(h.ignoredKeys).toEqual([]);
    const expected = [
      { name: server, transport: { kind: 'streamable-http', url: `http://${server}:8000/mcp` } },
    ];
    expect(h.environment.mcpServers).toEqual(expected);
    expect(harborAsTask(h).mcpServers).toEqual(expected);
  });

  it('a stdio server loads with its command and arguments', () => {
    const toml = `${recipe('a').split('[[environment.mcp_servers]]')[0]}[[environment.mcp_servers]]
name = "files"
transport = "stdio"
command = "npx"
args = ["-y", "@modelcontextprotocol/server-filesystem", "/app"]
`;
    expect(loadHarborFolder(harborWith(toml, 'stdio')).environment.mcpServers).toEqual([
      {
        name: 'files',
        transport: {
          kind: 'stdio',
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-filesystem', '/app'],
          env: {},
        },
      },
    ]);
  });

  it('an sse server makes the task unusable, in one line naming the transport', () => {
    const dir = harborWith(recipe('old').replace('streamable-http', 'sse'), 'sse');
    const found = harborFormat.load(dir);
    const [unusable] = found.unusableHarbor ?? [];
    expect(unusable?.problem.split('\n')).toHaveLength(1);
    expect(unusable?.problem).toMatch(/environment\.mcp_servers\[0\]\.transport/);
  });
});
