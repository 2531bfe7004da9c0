/**
 * A Harbor task's task.toml (the format of Terminal-Bench's harness), read as Harbor reads it:
 * `version`, free-form `[metadata]`, and the config sections agent-bench honours — the verifier's
 * and the agent's timeouts, the environment's resources and network, a pre-built image. Keys
 * agent-bench does not use (MCP servers, GPUs, a `[task]` or `[solution]` section, `source`) are
 * accepted and left alone, so a Harbor task is read as it is; the keys it does use are
 * type-checked, so a wrong one is a usage error and never a default silently taken.
 */
import { z } from 'zod';

const Seconds = z.number().positive();

/** Harbor's older form of a size: "4G", "512M", "2048" (MiB). */
const Size = z.union([
  z.int().positive(),
  z.string().regex(/^\d+(\.\d+)?\s*[KMGT]?i?B?$/i, 'must be a size such as 4G or 512M'),
]);

export const HarborManifest = z.looseObject({
  version: z.string().min(1),
  metadata: z.record(z.string(), z.unknown()).default({}),
  verifier: z
    .looseObject({
      timeout_sec: Seconds.default(600),
      env: z.record(z.string(), z.string()).default({}),
    })
    .default({ timeout_sec: 600, env: {} }),
  agent: z.looseObject({ timeout_sec: Seconds.default(600) }).default({ timeout_sec: 600 }),
  environment: z
    .looseObject({
      build_timeout_sec: Seconds.default(600),
      docker_image: z.string().min(1).nullable().default(null),
      cpus: z.number().positive().default(1),
      memory_mb: z.int().positive().optional(),
      memory: Size.optional(),
      allow_internet: z.boolean().default(true),
    })
    .default({ build_timeout_sec: 600, docker_image: null, cpus: 1, allow_internet: true }),
});

export type HarborManifest = z.output<typeof HarborManifest>;

const UNITS: Record<string, number> = { '': 1, K: 1 / 1024, M: 1, G: 1024, T: 1024 * 1024 };

/** The environment's memory in MiB: memory_mb, else Harbor's older `memory = "4G"`, else Harbor's default 2048. */
export function memoryMb(env: HarborManifest['environment']): number {
  if (env.memory_mb !== undefined) return env.memory_mb;
  if (env.memory === undefined) return 2048;
  if (typeof env.memory === 'number') return env.memory;
  const m = /^(\d+(?:\.\d+)?)\s*([KMGT]?)/i.exec(env.memory);
  return Math.ceil(Number(m?.[1] ?? 0) * (UNITS[(m?.[2] ?? '').toUpperCase()] ?? 1));
}
