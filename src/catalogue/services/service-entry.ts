/**
 * One service's entry, in compose's words, read into a ServiceDecl: the same keys for Harbor's
 * environment/docker-compose.yaml and a native task.toml's [[services]]. Each key is honoured,
 * refused (it would give the pod a route out, reach the host, or change what runs in a way the
 * pod cannot keep: one problem line), or ignored (one note line); docs/services.md has the table.
 */
import type { HealthCheck, ServiceDecl } from '../../sandbox/types.js';
import { words } from '../harbor/dockerfile-parse.js';
import { durationMs } from './durations.js';

/** What reading a service (or a compose file) found: problems stop the task, notes are said once. */
export interface Findings {
  problems: string[];
  notes: string[];
}

const REFUSED: Record<string, string> = {
  ports:
    'publishes a port on the host, and the pod has no route out (the agent reaches a service by its name on 127.0.0.1: `expose` is enough)',
  networks: 'the pod is one network namespace, with no Docker network',
  network_mode: 'the pod is one network namespace, with no Docker network',
  volumes: 'binds host folders or volumes into a sandbox (bake the files into the image)',
  volumes_from: 'shares another container’s volumes',
  privileged: 'no service runs privileged',
  cap_add: 'every service runs with all capabilities dropped',
  pid: 'no service joins another PID namespace',
  ipc: 'no service joins another IPC namespace',
  devices: 'no host device reaches a sandbox',
  secrets: 'no host secret reaches a sandbox',
  configs: 'no host file reaches a sandbox',
  extends: 'write the service out in full',
  security_opt: 'every service runs with no-new-privileges and nothing else',
};

const HONOURED = new Set([
  'image',
  'build',
  'expose',
  'environment',
  'command',
  'entrypoint',
  'user',
  'working_dir',
  'tmpfs',
  'healthcheck',
  'depends_on',
  'x-agent-bench',
]);

/** Reads `raw` as the service `name`; `where` prefixes every line (`services.api`). */
export function readServiceEntry(
  name: string,
  raw: unknown,
  where: string,
  found: Findings,
): ServiceDecl | null {
  if (!isTable(raw)) {
    found.problems.push(`${where}: must be a table of the service's settings`);
    return null;
  }
  const before = found.problems.length;
  const problem = (key: string, message: string): void => {
    found.problems.push(`${where}.${key}: ${message}`);
  };
  const ignored: string[] = [];
  for (const key of Object.keys(raw)) {
    const refusal = REFUSED[key];
    if (refusal !== undefined) problem(key, `refused: ${refusal}`);
    else if (!HONOURED.has(key) && !key.startsWith('x-')) ignored.push(key);
  }
  if (ignored.length > 0) found.notes.push(`${where}: agent-bench ignores ${ignored.join(', ')}`);
  const image = imageOf(raw, problem);
  const expose = portsOf(raw.expose, (m) => problem('expose', m));
  const environment = variablesOf(raw.environment, (m) => problem('environment', m));
  const command = argvOf(raw.command, (m) => problem('command', m));
  const entrypoint = argvOf(raw.entrypoint, (m) => problem('entrypoint', m));
  const user = optionalString(raw.user, (m) => problem('user', m));
  const workingDir = optionalString(raw.working_dir, (m) => problem('working_dir', m));
  const tmpfs = pathsOf(raw.tmpfs, (m) => problem('tmpfs', m));
  const healthcheck = healthcheckOf(raw.healthcheck, (m) => problem('healthcheck', m));
  const dependsOn = dependenciesOf(raw.depends_on, (m) => problem('depends_on', m));
  const stateless = extensionOf(raw['x-agent-bench'], (m) => problem('x-agent-bench', m));
  if (found.problems.length > before || image === null) return null;
  return {
    name,
    image,
    expose,
    environment,
    ...(command === undefined ? {} : { command }),
    ...(entrypoint === undefined ? {} : { entrypoint }),
    ...(user === undefined ? {} : { user }),
    ...(workingDir === undefined ? {} : { workingDir }),
    tmpfs,
    ...(healthcheck === undefined ? {} : { healthcheck }),
    dependsOn,
    stateless,
  };
}

type Say = (message: string) => void;

function imageOf(
  raw: Record<string, unknown>,
  problem: (key: string, m: string) => void,
): ServiceDecl['image'] | null {
  const { image, build } = raw;
  if (build !== undefined) {
    if (typeof build === 'string' && build !== '')
      return { kind: 'build', context: build, dockerfile: 'Dockerfile' };
    if (!isTable(build) || typeof build.context !== 'string') {
      problem('build', 'must be a folder of the task, or a table with `context` (and `dockerfile`)');
      return null;
    }
    const extra = Object.keys(build).filter((k) => k !== 'context' && k !== 'dockerfile');
    if (extra.length > 0) {
      problem(
        'build',
        `${extra.join(', ')}: not supported (the build has the context and the Dockerfile only)`,
      );
      return null;
    }
    const dockerfile = build.dockerfile ?? 'Dockerfile';
    if (typeof dockerfile !== 'string' || dockerfile === '') {
      problem('build.dockerfile', 'must be a file name');
      return null;
    }
    return { kind: 'build', context: build.context, dockerfile };
  }
  if (typeof image === 'string' && image !== '') return { kind: 'image', image };
  problem(
    image === undefined ? 'image' : 'image',
    'a service needs `image` (on this machine) or `build` (a folder of the task)',
  );
  return null;
}

function portsOf(value: unknown, say: Say): number[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    say('must be a list of ports');
    return [];
  }
  const out: number[] = [];
  for (const v of value) {
    const m = /^(\d+)(?:-(\d+))?(?:\/(tcp|udp))?$/.exec(String(v));
    const from = Number(m?.[1]);
    const to = m?.[2] === undefined ? from : Number(m[2]);
    if (m === null || !(from >= 1 && to <= 65535 && from <= to)) {
      say(`${JSON.stringify(v)} is no port (1 to 65535, or a range such as 8000-8002)`);
      continue;
    }
    for (let p = from; p <= to; p++) out.push(p);
  }
  return out;
}

function variablesOf(value: unknown, say: Say): Record<string, string> {
  if (value === undefined) return {};
  const out: Record<string, string> = {};
  if (Array.isArray(value)) {
    for (const v of value) {
      const m = typeof v === 'string' ? /^([^=]+)=(.*)$/s.exec(v) : null;
      if (m === null)
        say(
          `${JSON.stringify(v)}: each entry is NAME=value (a value from this machine's environment is not passed)`,
        );
      else out[m[1] ?? ''] = m[2] ?? '';
    }
    return out;
  }
  if (!isTable(value)) {
    say('must be a table of NAME = value, or a list of NAME=value');
    return out;
  }
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[k] = String(v);
    else say(`${k}: needs a value (a value from this machine's environment is not passed)`);
  }
  return out;
}

/** A list is the argv; a string is split into words as compose does (no shell runs it). */
function argvOf(value: unknown, say: Say): string[] | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return words(value).map(unquote);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value;
  say('must be a list of strings, or a command line');
  return undefined;
}

function unquote(word: string): string {
  return word.replace(/^(["'])(.*)\1$/s, '$2');
}

function optionalString(value: unknown, say: Say): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && value !== '') return value;
  say('must be a non-empty string');
  return undefined;
}

function pathsOf(value: unknown, say: Say): string[] {
  if (value === undefined) return [];
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || !list.every((p) => typeof p === 'string' && p.startsWith('/'))) {
    say('must be an absolute path or a list of them');
    return [];
  }
  return list.map((p: string) => p.split(':')[0] ?? p);
}

/** Docker's defaults: every 30 s, 30 s each, 3 retries, no start period. */
function healthcheckOf(value: unknown, say: Say): HealthCheck | undefined {
  if (value === undefined) return undefined;
  if (!isTable(value)) {
    say('must be a table (test, interval, timeout, retries, start_period)');
    return undefined;
  }
  if (value.disable === true) return undefined;
  const test = typeof value.test === 'string' ? ['CMD-SHELL', value.test] : value.test;
  if (!Array.isArray(test) || !test.every((t) => typeof t === 'string') || test.length === 0) {
    say('test: must be a list (["CMD", ...] or ["CMD-SHELL", "..."]) or a command line');
    return undefined;
  }
  if (test[0] === 'NONE') return undefined;
  if ((test[0] !== 'CMD' && test[0] !== 'CMD-SHELL') || test.length < 2) {
    say('test: must start with CMD or CMD-SHELL and name a command');
    return undefined;
  }
  const duration = (key: string, fallback: number): number => {
    if (value[key] === undefined) return fallback;
    const ms = durationMs(value[key]);
    if (ms === null) say(`${key}: ${JSON.stringify(value[key])} is no duration (such as 2s, 500ms, 1m30s)`);
    return ms ?? fallback;
  };
  const retries = value.retries ?? 3;
  if (!Number.isInteger(retries) || (retries as number) < 1) say('retries: must be a whole number from 1');
  const ignored = Object.keys(value).filter(
    (k) => !['test', 'interval', 'timeout', 'retries', 'start_period', 'disable'].includes(k),
  );
  if (ignored.length > 0) say(`${ignored.join(', ')}: not supported`);
  return {
    test,
    intervalMs: duration('interval', 30_000),
    timeoutMs: duration('timeout', 30_000),
    retries: Number(retries),
    startPeriodMs: duration('start_period', 0),
  };
}

/**
 * The services this one waits for. `service_started` and `service_healthy` both wait for the
 * dependency to be ready, which is healthy when it has a healthcheck; a one-shot job's
 * `service_completed_successfully` is refused.
 */
function dependenciesOf(value: unknown, say: Say): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value;
  if (!isTable(value)) {
    say('must be a list of services, or a table of service = { condition = ... }');
    return [];
  }
  for (const [name, v] of Object.entries(value)) {
    const condition = isTable(v) ? v.condition : undefined;
    if (condition !== undefined && condition !== 'service_healthy' && condition !== 'service_started')
      say(
        `${name}: condition ${JSON.stringify(condition)} is not supported (service_healthy or service_started)`,
      );
  }
  return Object.keys(value);
}

/** `x-agent-bench: { stateless: true }`: whether the service keeps running between trials. */
function extensionOf(value: unknown, say: Say): boolean {
  if (value === undefined) return false;
  if (
    !isTable(value) ||
    Object.keys(value).some((k) => k !== 'stateless') ||
    (value.stateless !== undefined && typeof value.stateless !== 'boolean')
  ) {
    say('must be { stateless: true|false }');
    return false;
  }
  return value.stateless === true;
}

export function isTable(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
