/** environment/docker-compose.yaml read as Harbor's merge-on-top form, and checked as a pod. */
import { describe, expect, it } from 'vitest';
import { composeServices } from '../../../src/catalogue/services/compose.js';
import type { Findings } from '../../../src/catalogue/services/service-entry.js';
import { podOrder } from '../../../src/sandbox/services/order.js';

function read(text: string): Findings & { services: ReturnType<typeof composeServices> } {
  const found: Findings = { problems: [], notes: [] };
  const services = composeServices(text, found);
  return { ...found, services };
}

// The cookbook's multi-container recipe, in its form: main's overrides and one built sidecar.
const MULTI_CONTAINER = `
services:
  main:
    depends_on:
      api-server:
        condition: service_healthy
  api-server:
    build:
      context: ./api-server
    expose:
      - "5000"
    healthcheck:
      test: ["CMD", "python3", "-c", "print(1)"]
      interval: 2s
      timeout: 5s
      retries: 15
      start_period: 1m30s
`;

describe('docker-compose.yaml', () => {
  it('reads main as overrides and every other service as a sidecar, with its healthcheck', () => {
    const r = read(MULTI_CONTAINER);
    expect(r.problems).toEqual([]);
    expect(r.notes).toEqual([]);
    expect(r.services).toEqual([
      {
        name: 'api-server',
        image: { kind: 'build', context: './api-server', dockerfile: 'Dockerfile' },
        expose: [5000],
        environment: {},
        tmpfs: [],
        healthcheck: {
          test: ['CMD', 'python3', '-c', 'print(1)'],
          intervalMs: 2000,
          timeoutMs: 5000,
          retries: 15,
          startPeriodMs: 90_000,
        },
        dependsOn: [],
        stateless: false,
      },
    ]);
  });

  it('takes environment as a table or a list, a command line as words, and x-agent-bench stateless', () => {
    const r = read(`
services:
  db:
    image: local/db:1
    environment: [A=1, "B=two words"]
    command: python3 -m http.server "8 0"
    x-agent-bench: { stateless: true }
  api:
    image: local/api:1
    environment: { PORT: 8000, DEBUG: false }
    healthcheck: { test: "curl -f localhost" }
`);
    expect(r.problems).toEqual([]);
    expect(r.services[0]).toMatchObject({
      environment: { A: '1', B: 'two words' },
      command: ['python3', '-m', 'http.server', '8 0'],
      stateless: true,
    });
    expect(r.services[1]).toMatchObject({
      environment: { PORT: '8000', DEBUG: 'false' },
      healthcheck: { test: ['CMD-SHELL', 'curl -f localhost'], intervalMs: 30_000, retries: 3 },
      stateless: false,
    });
  });

  it('refuses what would open a route out or reach the host, one line each, and notes what it ignores', () => {
    const r = read(`
networks: { default: {} }
services:
  main:
    environment: { X: 1 }
  api:
    image: local/api:1
    ports: ["8000:8000"]
    volumes: ["./data:/data"]
    restart: always
`);
    expect(r.problems).toEqual([
      expect.stringMatching(/^services\.api\.ports: refused: publishes a port on the host/),
      expect.stringMatching(/^services\.api\.volumes: refused:/),
    ]);
    expect(r.notes).toEqual([
      'agent-bench ignores networks (the pod has no Docker networks or volumes)',
      "services.main: agent-bench ignores environment (the agent's container is agent-bench's sandbox)",
      'services.api: agent-bench ignores restart',
    ]);
  });

  it('says what is wrong with a service and with main’s dependencies', () => {
    const r = read(`
services:
  main: { depends_on: [nowhere] }
  a: { expose: ["x"], healthcheck: { test: ["CMD", "true"], interval: soon } }
  b: { image: i, depends_on: { a: { condition: service_completed_successfully } } }
`);
    expect(r.problems).toEqual([
      'services.a.image: a service needs `image` (on this machine) or `build` (a folder of the task)',
      'services.a.expose: "x" is no port (1 to 65535, or a range such as 8000-8002)',
      'services.a.healthcheck: interval: "soon" is no duration (such as 2s, 500ms, 1m30s)',
      'services.b.depends_on: a: condition "service_completed_successfully" is not supported (service_healthy or service_started)',
      'services.main.depends_on: "nowhere" is no service of the file',
    ]);
  });

  it('is not YAML: one line', () => {
    expect(read('services: [').problems).toEqual([expect.stringMatching(/^is not YAML: /)]);
  });
});

describe('the pod', () => {
  const svc = (name: string, expose: number[], dependsOn: string[] = []) => ({ name, expose, dependsOn });

  it('starts each service after what it depends on, otherwise in the declared order', () => {
    const r = podOrder([
      svc('web', [80], ['api']),
      svc('api', [8000], ['db']),
      svc('db', [5432]),
      svc('cache', [6379]),
    ]);
    expect(r.ok && r.order.map((s) => s.name)).toEqual(['db', 'api', 'web', 'cache']);
  });

  it('refuses two services on one port before anything starts', () => {
    expect(podOrder([svc('a', [8000]), svc('b', [9000, 8000])])).toEqual({
      ok: false,
      problem:
        'services "a" and "b" both expose port 8000: they share one network namespace, so only one can listen on it',
    });
  });

  it('refuses a circle of dependencies, an unknown one, and a name that is taken or no host name', () => {
    expect(podOrder([svc('a', [], ['b']), svc('b', [], ['a'])])).toEqual({
      ok: false,
      problem: 'the services depend on each other in a circle: a → b → a',
    });
    expect(podOrder([svc('a', [], ['z'])])).toMatchObject({
      ok: false,
      problem: expect.stringContaining('"z"'),
    });
    expect(podOrder([svc('main', [])])).toMatchObject({
      ok: false,
      problem: expect.stringContaining('taken'),
    });
    expect(podOrder([svc('a_b', [])])).toMatchObject({
      ok: false,
      problem: expect.stringContaining('host name'),
    });
  });
});
