/**
 * One scenario file as a Scenario: parsed, cross-checked and its gold actions replayed, so a broken
 * file is a usage error naming it before any trial. A file with a `variants` block is a template:
 * its folder choices fill it into the scenario as written (the folder's own instance), and any
 * instance id draws another, checked the same way (a gold action failing on an instance names the
 * scenario and the instance).
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { fillTyped } from '../tasks/variants/template.js';
import { UsageError } from '../util/errors.js';
import { replayGold } from './gold.js';
import { type BaseSeed, type DeskSeed, mergeSeed, ScenarioSeed } from './helpdesk/seed.js';
import type { DeskState } from './helpdesk/state.js';
import { ScenarioFile } from './scenario.js';
import { crossCheck } from './scenario-checks.js';
import { drawChoices, instanceValues, ScenarioVariants, variantsProblems } from './variants/pools.js';

export interface Scenario {
  file: ScenarioFile;
  /** The base with the scenario's seed on top: what each trial starts from. */
  seed: DeskSeed;
  /** The end state the gold actions leave on a fresh desk: what every trial must end in. */
  expected: DeskState;
  /** The scenario's instances, when its file declares `variants`. */
  variants?: ScenarioInstances;
}

interface ScenarioInstances {
  /** The block as written: part of the task's version, so other pools draw other instances. */
  spec: ScenarioVariants;
  /** The drawn instance this scenario is; absent: the file's own (its folder choices). */
  instance?: string;
  /** The values its placeholders took. */
  values: Record<string, unknown>;
  /** Instance `id`, drawn from the id alone. */
  draw(id: string): Scenario;
}

type Base = z.infer<typeof BaseSeed>;

/** The file's top level before its placeholders are filled: only the variants block and the directory are read. */
const Template = z.looseObject({
  variants: ScenarioVariants.optional(),
  seed: z.looseObject({ employees: ScenarioSeed.shape.employees }).optional(),
});

export function loadScenario(path: string, base: Base): Scenario {
  const { variants, ...template } = parseJson(path, Template);
  if (variants === undefined) return scenarioOf(path, base, template);
  // Employees are drawn from the directory the scenario starts with (its seed's own are not templated).
  const directory = mergeSeed(base, { ...emptySeed, employees: template.seed?.employees ?? [] }).employees;
  const problems = variantsProblems(variants, directory);
  if (problems.length > 0) throw new UsageError(`${path}: variants: ${problems.join('; ')}`);
  const instance = (id: string | undefined): Scenario => {
    const values = instanceValues(
      variants,
      id === undefined ? variants.folder : drawChoices(variants, id),
      directory,
    );
    const where = id === undefined ? path : `${path} (instance ${id})`;
    const filled = fillTyped(template, {
      taskId: `${where}: scenario ${String(template.id)}`,
      instanceId: id ?? 'folder',
      values,
      source: 'its variants pools',
    });
    const scenario = scenarioOf(where, base, filled);
    const own = { spec: variants, values, draw: (other: string) => instance(other) };
    return { ...scenario, variants: id === undefined ? own : { ...own, instance: id } };
  };
  return instance(undefined);
}

const emptySeed = ScenarioSeed.parse({ now: '2025-01-01T00:00:00Z' });

function scenarioOf(where: string, base: Base, json: unknown): Scenario {
  const file = parsed(where, json, ScenarioFile);
  const seed = mergeSeed(base, file.seed);
  const problems = crossCheck({ file, seed });
  if (problems.length > 0) throw new UsageError(`${where}: ${problems.join('; ')}`);
  const gold = replayGold(seed, file.tools, file.gold_actions);
  if (!gold.ok) throw new UsageError(`${where}: scenario ${file.id}: ${gold.problem}`);
  return { file, seed, expected: gold.state };
}

export function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${path}`, { cause: err });
  }
}

export function parseJson<T>(path: string, schema: z.ZodType<T>): T {
  let json: unknown;
  try {
    json = JSON.parse(readText(path));
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`${path} is not valid JSON: ${(err as Error).message}`);
  }
  return parsed(path, json, schema);
}

function parsed<T>(where: string, json: unknown, schema: z.ZodType<T>): T {
  const result = schema.safeParse(json);
  if (!result.success) {
    const issues = result.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`);
    throw new UsageError(`${where}: ${issues.join('; ')}`);
  }
  return result.data;
}
