/**
 * The options of a run over several machines, as the command line gives them: --shard and
 * --run-group on run and ladder, `results merge`, and --docker-host (or DOCKER_HOST) for the engine.
 * Bad input is one line; a command line that parses reaches the command with what it said.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runSettings as settingsOf, shardPlan } from '../../src/cli/run-options.js';
import { docker, useDockerHost } from '../../src/sandbox/docker/engine.js';
import { checkDockerHost } from '../../src/sandbox/docker/host.js';
import { UsageError } from '../../src/util/errors.js';
import { SAY_DONE } from '../helpers/memory-run.js';
import { parsed, settingsOptions } from './shard-cli.js';

const TASKS = ['a', 'b', 'c'].map((id) => ({ ...SAY_DONE, id }));
const savedHost = process.env.DOCKER_HOST;
afterEach(() => {
  if (savedHost === undefined) delete process.env.DOCKER_HOST;
  else process.env.DOCKER_HOST = savedHost;
});

describe('--shard and --run-group', () => {
  it('reach run and ladder, and become the shard of the work', async () => {
    const run = await parsed(['run', '--model', 'm', '--tasks', 'a,b,c', '--k', '2', '--shard', '2/3']);
    expect(run).toMatchObject({ command: 'run', opts: { shard: '2/3' } });
    const opts = settingsOptions(run);
    const plan = shardPlan(opts, TASKS, settingsOf(opts));
    expect(plan?.spec).toEqual({ index: 2, count: 3 });
    expect(plan?.record('a')?.trials).toEqual([1]);

    const ladder = await parsed(['ladder', '--models', 'x,y', '--shard', '1/2', '--run-group', 'nightly']);
    const lopts = settingsOptions(ladder);
    expect(shardPlan(lopts, TASKS, settingsOf(lopts))?.group).toBe('nightly');
    // No --shard: the whole run.
    const whole = settingsOptions(await parsed(['run', '--model', 'm']));
    expect(shardPlan(whole, TASKS, settingsOf(whole))).toBeUndefined();
  });

  it('refuses a bad shard or a run group without one, in one line', async () => {
    const opts = async (argv: string[]) => {
      const o = settingsOptions(await parsed(['run', ...argv]));
      return () => shardPlan(o, TASKS, settingsOf(o));
    };
    expect(await opts(['--shard', '3/2'])).toThrow(
      new UsageError('--shard 3/2: i must be between 1 and N (2); shards count from 1'),
    );
    expect(await opts(['--shard', 'two'])).toThrow(/^--shard must be i\/N, e.g. 2\/3/);
    expect(await opts(['--run-group', 'x'])).toThrow(
      new UsageError('--run-group names the run its shards share: it goes with --shard i/N'),
    );
    expect(await opts(['--shard', '1/2', '--run-group', '../x'])).toThrow(
      /^--run-group must be 1-64 letters/,
    );
  });
});

describe('results merge', () => {
  it('takes folders and --into', async () => {
    expect(await parsed(['results', 'merge', 's1', 's2', '--into', 'm', '--run-group', 'g'])).toEqual({
      command: 'merge',
      args: ['s1', 's2'],
      opts: { into: 'm', runGroup: 'g' },
    });
  });

  it('needs --into and at least one folder', async () => {
    await expect(parsed(['results', 'merge', 's1'])).rejects.toMatchObject({
      code: 'commander.missingMandatoryOptionValue',
    });
    await expect(parsed(['results', 'merge', '--into', 'm'])).rejects.toMatchObject({
      code: 'commander.missingArgument',
    });
  });
});

describe('--docker-host and DOCKER_HOST', () => {
  it.each([
    'unix:///run/ab-docker2.sock',
    'tcp://127.0.0.1:2375',
    'tcp://docker-engine:2376',
    'ssh://bench@gpu-3',
    'ssh://gpu-3:2222',
  ])('takes %s', (host) => {
    expect(checkDockerHost(host, '--docker-host')).toBe(host);
  });

  it.each([
    ['/var/run/docker.sock', 'needs a scheme'],
    ['127.0.0.1:2375', 'needs a scheme'],
    ['unix://', 'needs an absolute socket path'],
    ['unix://run/x.sock', 'needs an absolute socket path'],
    ['tcp://127.0.0.1', 'needs a port (2375 plain, 2376 TLS)'],
    ['tcp://:2375', 'is not a valid address'],
    ['tcp://host:2375/v1', 'takes no path'],
    ['http://host:2375', 'http:// is not an engine address'],
  ])('refuses %s: %s', (host, problem) => {
    expect(() => checkDockerHost(host, '--docker-host')).toThrow(
      new UsageError(
        `--docker-host ${JSON.stringify(host)}: ${problem} (forms: unix:///path/to/docker.sock, tcp://host:port, ssh://[user@]host[:port])`,
      ),
    );
  });

  it('--docker-host is applied before the command runs, on every command that uses the engine', async () => {
    for (const argv of [
      ['run', '--model', 'm'],
      ['ladder', '--models', 'x'],
      ['doctor'],
      ['validate'],
      ['image', 'build'],
    ]) {
      process.env.DOCKER_HOST = 'unix:///somewhere/else.sock';
      await parsed([...argv, '--docker-host', 'tcp://10.0.0.7:2375']);
      expect(process.env.DOCKER_HOST, argv.join(' ')).toBe('tcp://10.0.0.7:2375');
    }
    await expect(parsed(['run', '--docker-host', 'docker:2375'])).rejects.toThrow(
      /^--docker-host "docker:2375": /,
    );
  });

  it('the engine client is made for the host given, and a bad DOCKER_HOST is one line', () => {
    useDockerHost('tcp://10.0.0.7:2375');
    expect(docker().modem).toMatchObject({ host: '10.0.0.7', port: '2375', protocol: 'http' });
    useDockerHost('unix:///run/ab-docker2.sock');
    expect(docker().modem).toMatchObject({ socketPath: '/run/ab-docker2.sock' });
    // Without --docker-host, DOCKER_HOST is checked when the client is made.
    useDockerHost('unix:///run/ab-docker3.sock');
    process.env.DOCKER_HOST = 'docker:2375';
    expect(() => docker()).toThrow(
      new UsageError(
        'DOCKER_HOST "docker:2375": needs a scheme (forms: unix:///path/to/docker.sock, tcp://host:port, ssh://[user@]host[:port])',
      ),
    );
  });
});
