/**
 * Sandboxes on another Docker engine: a second dockerd on its own socket and a loopback TCP port,
 * holding a copy of the sandbox image. Two shards of one run go to it through the CLI, one by
 * --docker-host (unix), one by DOCKER_HOST (tcp), at the same time; their containers are created
 * on that engine and none on the main one, and `results merge` joins them. An engine that is not
 * there, a malformed address and a bad --shard are each one line.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/ladder/free-port.js';
import { readResultFiles } from '../../src/results/store.js';
import { ensureImage } from '../../src/sandbox/index.js';
import { type SecondEngine, startSecondEngine, whyNoSecondEngine } from './second-docker-engine.js';
import { startSshServer, whyNoSshServer } from './ssh-server.js';

const BIN = join(import.meta.dirname, '../../bin/agent-bench');
const exec = promisify(execFile);

/** The CLI's exit code, stdout and stderr. */
async function agentBench(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await exec(process.execPath, [BIN, ...args], {
      env: { ...process.env, ...env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** Containers an engine created for a run (its label), from its event log since `since` (unix seconds). */
function created(docker: (args: string[]) => string, runId: string, since: number): number {
  const out = docker([
    'events',
    '--since',
    String(since),
    '--until',
    String(Math.ceil(Date.now() / 1000) + 1),
    '--filter',
    'type=container',
    '--filter',
    'event=create',
    '--filter',
    `label=agent-bench.run=${runId}`,
    '--format',
    '{{.ID}}',
  ]);
  return out.split('\n').filter((l) => l.trim() !== '').length;
}

/** One light task with the reference agent: what each test runs on the engine it points at. */
const ORACLE_RUN = ['run', '--model', 'oracle', '--tasks', 'debug_python_v1'];

const why = whyNoSecondEngine();
const whySsh = whyNoSshServer();

describe.skipIf(why !== null)(
  `--docker-host against a second Docker engine${why === null ? '' : ` (skipped: ${why})`}`,
  () => {
    let engine: SecondEngine | null = null;
    let root: string;

    beforeAll(async () => {
      root = await mkdtemp(join(tmpdir(), 'docker-host-'));
      const image = await ensureImage();
      engine = await startSecondEngine({ tcpPort: await freePort() });
      engine.load(image.tag);
    });
    afterAll(async () => {
      await engine?.stop();
      await rm(root, { recursive: true, force: true });
    });

    it('runs the shards of a run on it (--docker-host unix://, DOCKER_HOST tcp://), and merges them', async () => {
      const second = engine as SecondEngine;
      const since = Math.floor(Date.now() / 1000) - 1;
      const dirs = [join(root, 'shard-1'), join(root, 'shard-2')];
      const bench = [...ORACLE_RUN, '--k', '2'];
      const [one, two] = await Promise.all([
        agentBench([
          ...bench,
          '--shard',
          '1/2',
          '--docker-host',
          second.unix,
          '--results-dir',
          dirs[0] as string,
        ]),
        agentBench([...bench, '--shard', '2/2', '--results-dir', dirs[1] as string], {
          DOCKER_HOST: second.tcp,
        }),
      ]);
      expect(one.code, one.stderr).toBe(0);
      expect(two.code, two.stderr).toBe(0);
      expect(one.stdout).toMatch(/debug_python_v1\s+oracle\s+PART \(1\/1 passed, shard 1\/2: its 1 of k=2\)/);

      const parts = await Promise.all(
        dirs.map(async (d) => (await readResultFiles(d)).results.map((f) => f.result)),
      );
      const main = (args: string[]): string => execFileSync('docker', args, { encoding: 'utf8' });
      for (const [i, [part]] of parts.entries()) {
        expect(part?.shard).toMatchObject({ index: i + 1, count: 2, trials: [i] });
        expect(part?.trials.map((t) => [t.index, t.status])).toEqual([[i, 'passed']]);
        const runId = part?.run_id ?? '';
        expect(
          created((a) => second.docker(a), runId, since),
          `containers of ${runId} on the second engine`,
        ).toBeGreaterThan(0);
        expect(created(main, runId, since), `containers of ${runId} on the main engine`).toBe(0);
      }

      const merged = await agentBench(['results', 'merge', ...dirs, '--into', join(root, 'merged')]);
      expect(merged.code, merged.stderr).toBe(0);
      expect(merged.stdout).toMatch(/debug_python_v1\s+oracle\s+PASS \(k=2\)/);
      const [file] = (await readResultFiles(join(root, 'merged'))).results;
      expect(file?.result).toMatchObject({ status: 'complete', pass_all_k: true, trials_run: 2 });
      expect(file?.result.merged?.parts.map((p) => p.shard)).toEqual([1, 2]);
      expect(JSON.parse(await readFile(file?.path ?? '', 'utf8')).shard).toBeUndefined();
    });

    it.skipIf(whySsh !== null)(
      `runs on it over ssh:// (the engine's own docker CLI at the far end)${whySsh === null ? '' : ` (skipped: ${whySsh})`}`,
      async () => {
        const second = engine as SecondEngine;
        // The SSH server's sessions reach the second engine, as a remote machine's would its own.
        const ssh = await startSshServer({ port: await freePort(), dockerHost: second.unix });
        try {
          const since = Math.floor(Date.now() / 1000) - 1;
          const dir = join(root, 'over-ssh');
          const r = await agentBench(
            [...ORACLE_RUN, '--docker-host', ssh.url, '--results-dir', dir],
            ssh.env,
          );
          expect(r.code, r.stderr).toBe(0);
          const [file] = (await readResultFiles(dir)).results;
          expect(file?.result.trials.map((t) => t.status)).toEqual(['passed']);
          const runId = file?.result.run_id ?? '';
          const main = (args: string[]): string => execFileSync('docker', args, { encoding: 'utf8' });
          expect(created((a) => second.docker(a), runId, since)).toBeGreaterThan(0);
          expect(created(main, runId, since)).toBe(0);
          // Nothing of the run is left on the engine it used.
          expect(second.docker(['ps', '-aq', '--filter', `label=agent-bench.run=${runId}`]).trim()).toBe('');
        } finally {
          await ssh.stop();
        }
      },
    );

    it('an engine that is not there is exit 3, a malformed address or shard exit 2, each in one line', async () => {
      const gone = await agentBench([
        ...ORACLE_RUN,
        '--docker-host',
        'unix:///run/ab-docker-none.sock',
        '--results-dir',
        join(root, 'none'),
      ]);
      expect(gone.code).toBe(3);
      expect(gone.stderr.trimEnd().split('\n').at(-1)).toMatch(
        /^agent-bench: no Docker engine answers at unix:\/\/\/run\/ab-docker-none\.sock \(/,
      );
      const malformed = await agentBench(['doctor', '--docker-host', 'http://127.0.0.1:2375']);
      expect(malformed.code).toBe(2);
      expect(malformed.stderr).toBe(
        'agent-bench: --docker-host "http://127.0.0.1:2375": http:// is not an engine address (forms: unix:///path/to/docker.sock, tcp://host:port, ssh://[user@]host[:port])\n',
      );
      const shard = await agentBench([
        'run',
        '--model',
        'oracle',
        '--shard',
        '3/2',
        '--results-dir',
        join(root, 'x'),
      ]);
      expect(shard.code).toBe(2);
      expect(shard.stderr).toBe(
        'agent-bench: --shard 3/2: i must be between 1 and N (2); shards count from 1\n',
      );
    });
  },
);
