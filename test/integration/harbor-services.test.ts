/**
 * A Harbor task in the cookbook's multi-container form (environment/docker-compose.yaml: main's
 * overrides and an `api-server` sidecar), offline on the sandbox image (--base-image): validate
 * proves it, the oracle and a scripted model that talks to `api-server` by name pass, one that
 * guesses fails, the verifier reaches the sidecar as Harbor's does, and nothing is left running.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureImage } from '../../src/sandbox/index.js';
import { SERVICE_LABEL } from '../../src/sandbox/services/service-container.js';
import { runHarborCli, validateHarborFolders } from '../helpers/harbor-cli.js';
import { type ScriptedReply, type ScriptedServer, startScriptedServer } from '../helpers/scripted-server.js';

const TASK = join(import.meta.dirname, 'fixtures/harbor-services');
/** tests/ has a Dockerfile: Harbor's separate verifier, whose image leaves a marker test.sh looks for. */
const SEPARATE = join(import.meta.dirname, 'fixtures/harbor-separate-verifier');

const exec = (command: string): ScriptedReply => ({
  calls: [{ name: 'execute_command', arguments: { command } }],
});
const SCRIPTS: Record<string, ScriptedReply[]> = {
  client: [
    exec(
      `python3 -c "import urllib.request as u; u.urlopen(u.Request('http://api-server:5000/items', data=b'{\\"name\\": \\"harbor\\"}', method='POST')).read(); open('/app/items.json', 'wb').write(u.urlopen('http://api-server:5000/items').read())"`,
    ),
    { text: 'done' },
  ],
  // Writes what the list would look like, without asking the API.
  // Writes the answer, and looks for the verifier image's marker, which its sandbox must not have.
  answerer: [exec('echo 42 > /app/answer.txt; cat /verifier-marker'), { text: 'done' }],
  guesser: [
    {
      calls: [
        {
          name: 'write_file',
          arguments: { path: '/app/items.json', content: '[{"id": 1, "name": "harbor"}]' },
        },
      ],
    },
    { text: 'done' },
  ],
};

let base = '';
let scratch = '';
let server: ScriptedServer;

beforeAll(async () => {
  base = (await ensureImage()).tag;
  scratch = mkdtempSync(join(tmpdir(), 'harbor-services-'));
  server = await startScriptedServer({ scripts: SCRIPTS });
}, 600_000);

afterAll(async () => {
  await server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const run = (model: string[]) => runHarborCli(scratch, TASK, ['--base-image', base, ...model]);
const scripted = (name: string) => ['--model', name, '--base-url', server.baseUrl];
/** Service containers on the engine: none once a run or validate is over. */
const services = () =>
  execFileSync('docker', ['ps', '-aq', '--filter', `label=${SERVICE_LABEL}=api-server`], {
    encoding: 'utf8',
  }).trim();

describe.sequential('a Harbor task with docker-compose.yaml services', () => {
  it('validate proves it: the oracle earns 1 talking to api-server, doing nothing 0', async () => {
    const { rows, exitCode, out } = await validateHarborFolders([TASK], {
      baseImage: base,
      taskNames: ['harbor-services'],
    });
    expect(exitCode, out).toBe(0);
    expect(rows.map((r) => r.split(/\s+/).slice(0, 3).join(' '))).toEqual([
      'harbor-services oracle ok',
      'harbor-services do-nothing ok',
    ]);
    expect(services()).toBe('');
  }, 600_000);

  it('a sidecar that installs packages as it builds (the cookbook’s pip install flask) says in one line it needs the network', async () => {
    const copy = join(scratch, 'needs-network');
    cpSync(TASK, copy, { recursive: true });
    const dockerfile = join(copy, 'environment/api-server/Dockerfile');
    writeFileSync(
      dockerfile,
      readFileSync(dockerfile, 'utf8').replace('COPY server.py .', 'RUN pip install flask\nCOPY server.py .'),
    );
    const { exitCode, out, error } = await validateHarborFolders([copy], {
      baseImage: base,
      taskNames: ['needs-network'],
    });
    expect(exitCode).not.toBe(0);
    expect(`${out}\n${error}`).toMatch(
      /needs the network to build \(.*pip install flask.*\), and builds here have none; .*--base-image IMAGE/,
    );
    expect(services()).toBe('');
  }, 600_000);

  it('the oracle and a model that asks api-server by name pass; the verifier sees the live API', async () => {
    for (const model of [['--model', 'oracle'], scripted('client')]) {
      const { code, stderr, result } = await run(model);
      expect(code, stderr).toBe(0);
      const trial = result.trials[0];
      expect(trial?.status, trial?.failure_reason ?? '').toBe('passed');
      expect(trial?.harbor_verifier?.output).toBe("written: ['anchor', 'harbor'] live: ['anchor', 'harbor']");
    }
    expect(services()).toBe('');
  }, 600_000);

  it('a model that guesses the list fails: the API never heard of harbor', async () => {
    const { result } = await run(scripted('guesser'));
    const trial = result.trials[0];
    expect(trial?.status).toBe('failed');
    expect(trial?.harbor_verifier?.output).toMatch(/live: \['anchor'\]/);
    expect(services()).toBe('');
  }, 600_000);
});

describe.sequential('a Harbor task with a separate verifier (tests/Dockerfile)', () => {
  it('test.sh runs in the image built from tests/, on the final workspace, never in the agent’s sandbox', async () => {
    const oracle = await runHarborCli(scratch, SEPARATE, ['--base-image', base, '--model', 'oracle']);
    expect(oracle.code, oracle.stderr).toBe(0);
    expect(oracle.result.trials[0]?.harbor_verifier?.output).toBe('verifier image: separate; answer: 42');
    const model = await runHarborCli(scratch, SEPARATE, ['--base-image', base, ...scripted('answerer')]);
    const trial = model.result.trials[0];
    expect(trial?.status, trial?.failure_reason ?? '').toBe('passed');
    expect(trial?.turn_logs[0]?.tool_calls[0]?.exit_code).not.toBe(0);
    expect(trial?.turn_logs[0]?.tool_calls[0]?.stderr).toContain('No such file');
  }, 600_000);
});
