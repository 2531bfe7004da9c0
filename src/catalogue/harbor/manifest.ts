/**
 * A Harbor task's task.toml (the format of Terminal-Bench's harness), read as Harbor reads it: its
 * schema version under either name (`version`, Harbor's older one, or `schema_version`, which Harbor
 * renamed it to; neither is required, as in Harbor), free-form `[metadata]`, and the config sections
 * agent-bench honours — the verifier's and the agent's timeouts, the environment's resources,
 * network, working directory and variables, a pre-built image, the MCP servers, the oracle's variables. Other keys are
 * accepted, so a Harbor task is read as it is; those that change how a task runs are named once in a
 * warning (ignoredKeys). The keys it does use are type-checked, so a wrong one is a usage error and
 * never a default silently taken.
 */
import { z } from 'zod';
import { McpServerList } from '../../manifest/mcp-servers.js';

const Seconds = z.number().positive();
const Variables = z.record(z.string(), z.string()).default({});

/** Harbor's older form of a size: "4G", "512M", "2048" (MiB). */
const Size = z.union([
  z.int().positive(),
  z.string().regex(/^\d+(\.\d+)?\s*[KMGT]?i?B?$/i, 'must be a size such as 4G or 512M'),
]);

export const HarborManifest = z.looseObject({
  schema_version: z.string().min(1).optional(),
  version: z.string().min(1).optional(),
  metadata: z.record(z.string(), z.unknown()).default({}),
  verifier: z
    .looseObject({
      timeout_sec: Seconds.default(600),
      env: Variables,
      /** `separate`: the verifier runs in an image of its own (tests/ built, or environment.docker_image). */
      environment_mode: z.enum(['shared', 'separate']).optional(),
      environment: z.looseObject({ docker_image: z.string().min(1).optional() }).optional(),
    })
    .default({ timeout_sec: 600, env: {} }),
  agent: z.looseObject({ timeout_sec: Seconds.default(600) }).default({ timeout_sec: 600 }),
  solution: z.looseObject({ env: Variables }).default({ env: {} }),
  environment: z
    .looseObject({
      build_timeout_sec: Seconds.default(600),
      docker_image: z.string().min(1).nullable().default(null),
      cpus: z.number().positive().default(1),
      memory_mb: z.int().positive().optional(),
      memory: Size.optional(),
      allow_internet: z.boolean().default(true),
      workdir: z.string().startsWith('/', 'must be an absolute path').optional(),
      env: Variables,
      /** Whose tools the model is offered (src/tasks/mcp-servers.ts); a url's host is a service of the environment. */
      mcp_servers: McpServerList.default([]),
    })
    .default({
      build_timeout_sec: 600,
      docker_image: null,
      cpus: 1,
      allow_internet: true,
      env: {},
      mcp_servers: [],
    }),
  /**
   * Files Harbor collects after the trial (container paths, or `{ source }`): what a separate
   * verifier is given of the agent's work (load.ts); a shared verifier sees the whole workdir.
   */
  artifacts: z.array(z.union([z.string().min(1), z.looseObject({ source: z.string().min(1) })])).default([]),
  /** Multi-step tasks: refused by name when loading (load.ts), so only their presence is read here. */
  steps: z.array(z.unknown()).optional(),
});

export type HarborManifest = z.output<typeof HarborManifest>;

/** The schema version as the task gives it, under either name (schema_version wins, as in Harbor); null when it gives none. */
export function schemaVersion(m: HarborManifest): string | null {
  return m.schema_version ?? m.version ?? null;
}

const UNITS: Record<string, number> = { '': 1, K: 1 / 1024, M: 1, G: 1024, T: 1024 * 1024 };

/** The environment's memory in MiB: memory_mb, else Harbor's older `memory = "4G"`, else Harbor's default 2048. */
export function memoryMb(env: HarborManifest['environment']): number {
  if (env.memory_mb !== undefined) return env.memory_mb;
  if (env.memory === undefined) return 2048;
  if (typeof env.memory === 'number') return env.memory;
  const m = /^(\d+(?:\.\d+)?)\s*([KMGT]?)/i.exec(env.memory);
  return Math.ceil(Number(m?.[1] ?? 0) * (UNITS[(m?.[2] ?? '').toUpperCase()] ?? 1));
}

/** What each section's keys agent-bench honours; `[metadata]`, `[task]` and `source` only describe a task. */
const HONOURED: Record<string, ReadonlySet<string> | 'all'> = {
  schema_version: 'all',
  version: 'all',
  metadata: 'all',
  task: 'all',
  source: 'all',
  verifier: new Set(['timeout_sec', 'env', 'environment_mode', 'environment']),
  agent: new Set(['timeout_sec']),
  solution: new Set(['env']),
  environment: new Set([
    'build_timeout_sec',
    'docker_image',
    'cpus',
    'memory_mb',
    'memory',
    'allow_internet',
    'workdir',
    'env',
    'mcp_servers',
  ]),
};

/**
 * The keys of a parsed task.toml that would change how the task runs in Harbor and that agent-bench
 * does not honour (`environment.skills_dir`, `environment.gpus`, `verifier.user`...), dotted. A key
 * set to nothing (0, false, an empty list or table) asks for nothing and is left out.
 */
export function ignoredKeys(raw: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(raw)) {
    const honoured = HONOURED[key];
    if (honoured === 'all' || isNothing(value)) continue;
    if (honoured === undefined || !isTable(value)) {
      out.push(key);
      continue;
    }
    for (const [sub, v] of Object.entries(value))
      if (!honoured.has(sub) && !isNothing(v)) out.push(`${key}.${sub}`);
  }
  return out;
}

function isTable(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isNothing(v: unknown): boolean {
  if (v === 0 || v === false || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  return isTable(v) && Object.keys(v).length === 0;
}
