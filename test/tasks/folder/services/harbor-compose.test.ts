/**
 * A Harbor task with environment/docker-compose.yaml (the cookbook's multi-container form: main's
 * overrides and a sidecar built from a folder of environment/) loads with its services; a compose
 * file the pod cannot honour makes the task unusable in one line; what it ignores is a warning.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { harborFormat, harborTasks } from '../../../../src/catalogue/format-harbor.js';
import { loadHarborFolder } from '../../../../src/catalogue/harbor/load.js';

const FIXTURE = join(import.meta.dirname, '../../../integration/fixtures/harbor-services');
const COMPOSE = 'environment/docker-compose.yaml';

function variant(edit: (compose: string) => string): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'harbor-compose-')), 'harbor-services');
  cpSync(FIXTURE, dir, { recursive: true });
  writeFileSync(join(dir, COMPOSE), edit(readFileSync(join(dir, COMPOSE), 'utf8')));
  return dir;
}

describe('Harbor docker-compose.yaml', () => {
  it('loads the sidecar of the multi-container form, and the task runs with it as a pod', () => {
    const h = loadHarborFolder(FIXTURE);
    expect(h.composeNotes).toEqual([]);
    expect(h.services).toMatchObject([
      {
        name: 'api-server',
        image: { kind: 'build', context: './api-server' },
        expose: [5000],
        dependsOn: [],
      },
    ]);
    const [task] = harborTasks({ harbor: [h], unusableHarbor: [] }, { baseImage: 'local/base:1' });
    expect(task?.kind === 'harbor' && task.environment.services).toMatchObject({
      taskId: 'harbor-services',
      services: [
        {
          name: 'api-server',
          image: {
            kind: 'dockerfile',
            contextDir: join(FIXTURE, 'environment/api-server'),
            dockerfileName: 'environment/api-server/Dockerfile',
            from: 'python:3.12-slim',
            baseImage: 'local/base:1',
            // --base-image sets the sidecar's FROM as it does the task's own.
            dockerfile: { ok: true, text: expect.stringMatching(/^FROM local\/base:1\n/) },
            network: false,
          },
        },
      ],
    });
  });

  it('a compose file that publishes a port makes the task unusable, in one line naming the file', () => {
    const dir = variant((c) => c.replace('    expose:', '    ports: ["5000:5000"]\n    expose:'));
    const found = harborFormat.load(dir);
    expect(found.unusableHarbor?.[0]?.problem).toMatch(
      new RegExp(`^${dir}/${COMPOSE}: services\\.api-server\\.ports: refused: publishes a port on the host`),
    );
  });

  it('two sidecars on one port make the task unusable before anything is built', () => {
    const dir = variant((c) => `${c}\n  shadow:\n    build: ./api-server\n    expose: ["5000"]\n`);
    expect(harborFormat.load(dir).unusableHarbor?.[0]?.problem).toContain(
      'services "api-server" and "shadow" both expose port 5000',
    );
  });

  it('what the compose file asks that agent-bench ignores is one warning line each', () => {
    const dir = variant((c) => c.replace('    expose:', '    restart: always\n    expose:'));
    expect(harborFormat.load(dir).warnings).toEqual([
      `warning: ${dir}/${COMPOSE}: services.api-server: agent-bench ignores restart`,
    ]);
  });
});
