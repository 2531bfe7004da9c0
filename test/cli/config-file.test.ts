/** `run --config FILE` and `ladder --config FILE`: the file's options reach the command, under the flags. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { configOptions } from '../../src/cli/option-table/config-file.js';
import { CONFIG_EXAMPLE } from '../../src/cli/option-table/reference.js';
import { UsageError } from '../../src/util/errors.js';
import { parsed } from '../run/shard-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'agent-bench-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const BENCH_TOML = `
k = 3
early-stop = true
parallel = "auto"
skill-dir = ["./a", "./b"]
max-turns = 7
tool-calls = "native"
temperature = 0.5
`;

const savedHost = process.env.DOCKER_HOST;
afterEach(() => {
  if (savedHost === undefined) delete process.env.DOCKER_HOST;
  else process.env.DOCKER_HOST = savedHost;
});

describe('--config', () => {
  it('sets the options a TOML file names; the others keep their defaults', async () => {
    const { opts } = await parsed(['run', '--config', file('bench.toml', BENCH_TOML)]);
    expect(opts).toMatchObject({
      k: 3,
      earlyStop: true,
      parallel: 'auto',
      skillDir: ['./a', './b'],
      maxTurns: 7,
      toolCalls: 'native',
      temperature: 0.5,
      resultsDir: 'results',
      tasks: 'all',
    });
  });

  it('reads JSON as well, for ladder too, and lets it name its JSON Schema', async () => {
    const path = file(
      'ladder.json',
      JSON.stringify({ $schema: './ladder.schema.json', models: 'a,b', target: 0.8, 'max-k': 12 }),
    );
    const { command, opts } = await parsed(['ladder', '--config', path]);
    expect(command).toBe('ladder');
    expect(opts).toMatchObject({ models: 'a,b', target: 0.8, maxK: 12, k: 1 });
    expect(opts).not.toHaveProperty('$schema');
  });

  it('is the default command when no command is named', async () => {
    const { command, opts } = await parsed(['--config', file('default.toml', 'k = 2\n')]);
    expect({ command, k: opts.k }).toEqual({ command: 'run', k: 2 });
  });

  it('gives way to a flag, before or after it on the command line', async () => {
    const path = file('override.toml', BENCH_TOML);
    for (const argv of [
      ['run', '--k', '5', '--config', path, '--skill-dir', './c'],
      ['run', '--config', path, '--k', '5', '--skill-dir', './c'],
    ]) {
      const { opts } = await parsed(argv);
      expect(opts).toMatchObject({ k: 5, skillDir: ['./c'], earlyStop: true, maxTurns: 7 });
    }
  });

  it('names the Docker engine before the command runs, as --docker-host does', async () => {
    await parsed(['run', '--config', file('engine.toml', 'docker-host = "tcp://127.0.0.1:2375"\n')]);
    expect(process.env.DOCKER_HOST).toBe('tcp://127.0.0.1:2375');
  });

  it('refuses an unknown key in one line naming the file and the key', async () => {
    const path = file('unknown.toml', 'k = 2\nturbo = true\n');
    await expect(parsed(['run', '--config', path])).rejects.toThrow(
      new UsageError(
        `${path}: unknown key "turbo" (keys are run's long flags without --: agent-bench run --help)`,
      ),
    );
    expect(() => configOptions('run', 'c.json', '{"maxTurns": 3}')).toThrow(
      new UsageError(
        'c.json: unknown key "maxTurns" (did you mean "max-turns"? keys are the long flags without --)',
      ),
    );
    expect(() => configOptions('run', 'c.toml', 'models = "a,b"')).toThrow(
      new UsageError('c.toml: unknown key "models": an option of ladder, not of run'),
    );
  });

  it("refuses a value the flag's rule refuses, or of the wrong type, in one line naming the file and the key", async () => {
    const path = file('bad.toml', 'k = 0\n');
    await expect(parsed(['run', '--config', path])).rejects.toThrow(
      new UsageError(`${path}: k must be an integer >= 1 (got 0)`),
    );
    const cases: Array<[text: string, message: string]> = [
      ['k = "3"', 'k must be an integer >= 1 (got "3")'],
      ['failure-rate = 1.5', 'failure-rate must be a number from 0 to 1 (got 1.5)'],
      ['parallel = "all"', 'parallel must be an integer >= 1 or auto (got "all")'],
      ['split = "test"', 'split must be one of dev, holdout, all (got "test")'],
      ['early-stop = "yes"', 'early-stop must be true or false (got "yes")'],
      ['skill-dir = "./a"', 'skill-dir must be a list of strings (got "./a")'],
      ['model = 7', 'model must be a string (got 7)'],
    ];
    for (const [text, message] of cases)
      expect(() => configOptions('run', 'c.toml', text), text).toThrow(new UsageError(`c.toml: ${message}`));
  });

  it('refuses a file it cannot read as options, in one line', () => {
    const cases: Array<[name: string, text: string, message: string]> = [
      ['c.yaml', 'k: 1', '--config c.yaml: a config file is .json or .toml'],
      ['c.json', '[1]', 'c.json: must hold an object whose keys are options (the long flags without --)'],
      ['c.toml', 'k =', 'c.toml: not valid TOML (line 1, column 4): invalid value'],
    ];
    for (const [name, text, message] of cases)
      expect(() => configOptions('run', name, text), name).toThrow(new UsageError(message));
    expect(() => configOptions('run', 'c.json', '{"k": }')).toThrow(/^c\.json: not valid JSON: /);
  });

  it('says a missing file is missing', async () => {
    const path = join(dir, 'none.toml');
    await expect(parsed(['run', '--config', path])).rejects.toThrow(
      new UsageError(`--config ${path}: no such file`),
    );
  });

  it("holds docs/commands.md's example", () => {
    expect(configOptions('run', 'bench.toml', CONFIG_EXAMPLE)).toEqual({
      tasks: 'debug_python_v1,refactor_extract_js_v1',
      k: 5,
      earlyStop: true,
      conditions: 'clean,noisy',
      failureRate: 0.3,
      tasksDir: ['./my-tasks'],
    });
  });
});
