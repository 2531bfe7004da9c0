/**
 * A skill whose MCP backend is not available offline, benched with a stubbed server the harness
 * serves itself (`--skill-dir`), and the ladder over it: a model that calls the tool passes, one that
 * writes the brief without calling it fails its mcp flag.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { selectWithSkills } from '../../src/cli/select-tasks.js';
import { type LadderOptions, runLadder } from '../../src/ladder/run-ladder.js';
import { ensureImage } from '../../src/sandbox/index.js';
import { runSettings } from '../helpers/run-settings.js';
import { type ScriptedReply, startScriptedServer } from '../helpers/scripted-server.js';
import { benchWithScript, only } from './bench-harness.js';

const SKILL = join(import.meta.dirname, '..', 'skills', 'fixtures', 'mcp-weather-skill');

const read: ScriptedReply = { calls: [{ name: 'read_file', arguments: { path: 'skill/SKILL.md' } }] };
const ask: ScriptedReply = { calls: [{ name: 'weather__forecast', arguments: { city: 'Oslo' } }] };
const write: ScriptedReply = {
  calls: [{ name: 'write_file', arguments: { path: 'brief.txt', content: 'Oslo: rain, 9°C\n' } }],
};
const done: ScriptedReply = { text: 'Wrote brief.txt.' };

const tasks = () => selectWithSkills({ tasks: 'all', skillDirs: [SKILL], skillAb: false });

beforeAll(async () => {
  await ensureImage();
});

describe.sequential('a skill with a stubbed MCP server', () => {
  it('--skill-dir benches it: the stub answers the call, the mcp flag is reached', async () => {
    const run = await benchWithScript({ tasks: tasks(), script: [read, ask, write, done] });
    const trial = only(run).trials[0];
    expect(trial?.passed, trial?.failure_reason ?? '').toBe(true);
    expect(trial?.flags['mcp:weather__forecast']?.reached).toBe(true);
    expect(run.requests[0]?.body.tools?.map((t) => (t.type === 'function' ? t.function.name : ''))).toContain(
      'weather__forecast',
    );
  });

  it('the ladder runs over it: the model that calls the tool passes, the one that does not fails', async () => {
    const server = await startScriptedServer({
      scripts: {
        'tiny-0.5b-q4_K_M': [read, write, done],
        'small-3b-q4_K_M': [read, ask, write, done],
      },
    });
    try {
      const sink = { write: () => true, isTTY: false };
      const options: LadderOptions = {
        tasks: tasks(),
        suite: 'skill_run_v1_weather',
        source: { kind: 'server', baseUrl: server.baseUrl, models: ['tiny-0.5b-q4_K_M', 'small-3b-q4_K_M'] },
        settings: runSettings(),
        resultsDir: await mkdtemp(join(tmpdir(), 'agent-bench-mcp-ladder-')),
        resume: false,
        exhaustive: false,
        request: {
          apiKeyEnv: 'AGENT_BENCH_TEST_KEY',
          sampling: { temperature: 0 },
          requestTimeoutMs: 30_000,
          retries: 0,
        },
        stdout: sink,
        stderr: sink,
        handleSignals: false,
      };
      const outcome = await runLadder(options);
      expect(outcome.rungs.map((r) => [r.model.id, r.status])).toEqual([
        ['tiny-0.5b-q4_K_M', 'failed'],
        ['small-3b-q4_K_M', 'passed'],
      ]);
    } finally {
      await server.close();
    }
  });
});
