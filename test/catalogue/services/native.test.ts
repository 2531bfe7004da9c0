/** A native task.toml's [[services]]: read, their build folders resolved, checked as a pod when the folder loads. */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTaskFolder } from '../../../src/catalogue/native/load.js';
import { UsageError } from '../../../src/util/errors.js';

const FIXTURE = join(import.meta.dirname, '../../integration/fixtures/services-native');

/** The fixture copied, its task.toml with `more` appended. */
function variant(more: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'services-')), 'services-native');
  cpSync(FIXTURE, dir, { recursive: true });
  const toml = readFileSync(join(dir, 'task.toml'), 'utf8');
  // Appended services go before the flags, so TOML keeps them in the services list.
  writeFileSync(join(dir, 'task.toml'), toml.replace('[[flags]]', `${more}\n[[flags]]`));
  return dir;
}

describe('[[services]] in a task folder', () => {
  it('loads the service with its build folder hashed and its Dockerfile ready for the classic builder', () => {
    const task = loadTaskFolder(FIXTURE);
    const [api] = task.environment.services?.services ?? [];
    expect(task.environment.services?.taskId).toBe('services-native');
    expect(api).toMatchObject({
      name: 'api',
      expose: [8000],
      environment: { SECRET: 'orchid-7731-kestrel' },
      healthcheck: { intervalMs: 500, timeoutMs: 3000, retries: 40, startPeriodMs: 0 },
      stateless: false,
      image: {
        kind: 'dockerfile',
        contextDir: join(FIXTURE, 'services/api'),
        contextDigest: expect.stringMatching(/^[0-9a-f]{64}$/),
        dockerfile: { ok: true },
        dockerfileName: 'services/api/Dockerfile',
        from: '${SANDBOX_IMAGE}',
        network: false,
      },
    });
  });

  it('refuses two services on one port, in one line naming the file, before anything starts', () => {
    const dir = variant(
      '[[services]]\nname = "shadow"\nimage = "local/shadow:1"\nexpose = [8000]\nstateless = true\n',
    );
    expect(() => loadTaskFolder(dir)).toThrow(UsageError);
    expect(() => loadTaskFolder(dir)).toThrow(
      `${dir}/task.toml: services "api" and "shadow" both expose port 8000: they share one network namespace, so only one can listen on it`,
    );
  });

  it('refuses a build folder outside the task and a key agent-bench does not honour', () => {
    const dir = variant('[[services]]\nname = "out"\nbuild = "../.."\nrestart = "always"\n');
    expect(() => loadTaskFolder(dir)).toThrow(/services\[1\]: agent-bench ignores restart/);
    expect(() => loadTaskFolder(dir)).toThrow(
      /service "out": build context \.\.\/\.\. is outside the task folder/,
    );
  });
});
