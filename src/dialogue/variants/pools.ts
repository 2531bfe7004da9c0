/**
 * A scenario's `variants` block: named pools of values (an employee of the directory, a code of n
 * digits, an integer in a range, one of a list) that `{{instance.name}}` placeholders in the rest
 * of the file take, and the folder's own choices (the instance the file is without drawing). A
 * dialogue has no generator to run: its instances are drawn here, in the harness.
 */
import { z } from 'zod';
import { EMPLOYEE_ID, type Employee } from '../helpdesk/seed.js';
import { seededIndex } from './seeded-index.js';

const Scalar = z.union([z.string(), z.number()]);

const Pool = z.union([
  z.strictObject({ employee: z.array(z.string().regex(EMPLOYEE_ID)).min(1) }),
  z.strictObject({ digits: z.number().int().min(4).max(9) }),
  z.strictObject({
    int: z
      .strictObject({
        min: z.number().int(),
        max: z.number().int(),
        step: z.number().int().positive().default(1),
      })
      .refine((r) => r.min <= r.max, 'min is over max'),
  }),
  z.strictObject({ one_of: z.array(z.union([Scalar, z.record(z.string(), Scalar)])).min(1) }),
]);
type Pool = z.infer<typeof Pool>;

/** A pool's drawn choice as the file's `folder` writes it: an employee's id, the code, the number, the list's value. */
type Choice = z.infer<typeof Scalar> | Record<string, z.infer<typeof Scalar>>;

export const ScenarioVariants = z.strictObject({
  /** How many distinct instances the pools make at least (reports and READMEs quote it). */
  count_hint: z.number().int().min(2),
  pools: z.record(z.string().regex(/^[a-z][a-z0-9_]*$/, 'pool names are snake_case'), Pool),
  /** The folder's own instance: one choice per pool (what `--variant folder` and the tests replay). */
  folder: z.record(z.string(), z.union([Scalar, z.record(z.string(), Scalar)])),
});
export type ScenarioVariants = z.infer<typeof ScenarioVariants>;

export type Choices = Record<string, Choice>;

function poolSize(pool: Pool): number {
  if ('employee' in pool) return pool.employee.length;
  if ('digits' in pool) return 9 * 10 ** (pool.digits - 1);
  if ('int' in pool) return Math.floor((pool.int.max - pool.int.min) / pool.int.step) + 1;
  return pool.one_of.length;
}

function choiceAt(pool: Pool, index: number): Choice {
  if ('employee' in pool) return pool.employee[index] as string;
  // A code never starts with 0, so it cannot be the desk's default 000000 (a lure's wrong code).
  if ('digits' in pool) return String(10 ** (pool.digits - 1) + index);
  if ('int' in pool) return pool.int.min + index * pool.int.step;
  return pool.one_of[index] as Choice;
}

function inPool(pool: Pool, choice: Choice): boolean {
  if ('employee' in pool) return typeof choice === 'string' && pool.employee.includes(choice);
  if ('digits' in pool)
    return typeof choice === 'string' && new RegExp(`^[1-9]\\d{${pool.digits - 1}}$`).test(choice);
  if ('int' in pool)
    return (
      typeof choice === 'number' &&
      choice >= pool.int.min &&
      choice <= pool.int.max &&
      (choice - pool.int.min) % pool.int.step === 0
    );
  const text = JSON.stringify(choice);
  return pool.one_of.some((v) => JSON.stringify(v) === text);
}

/** Instance `id`'s choices: each pool's a pure function of the id and the pool's name. */
export function drawChoices(variants: ScenarioVariants, id: string): Choices {
  return Object.fromEntries(
    Object.entries(variants.pools).map(([name, pool]) => [
      name,
      choiceAt(pool, seededIndex(id, name, poolSize(pool))),
    ]),
  );
}

/**
 * What the block gets wrong, against the directory employees are drawn from: an unknown or
 * repeated employee, a pool with one choice (nothing varies), pools that make fewer instances than
 * count_hint, a folder choice missing or not in its pool.
 */
export function variantsProblems(variants: ScenarioVariants, directory: readonly Employee[]): string[] {
  const problems: string[] = [];
  const ids = new Set(directory.map((e) => e.id));
  let count = 1;
  for (const [name, pool] of Object.entries(variants.pools)) {
    const size = poolSize(pool);
    count *= size;
    if (size < 2) problems.push(`pool ${name} has one choice: write its value in the file`);
    if ('employee' in pool) {
      for (const id of pool.employee) if (!ids.has(id)) problems.push(`pool ${name}: no employee ${id}`);
      if (new Set(pool.employee).size !== pool.employee.length)
        problems.push(`pool ${name}: an employee twice`);
    }
    const folder = variants.folder[name];
    if (folder === undefined) problems.push(`folder has no choice for pool ${name}`);
    else if (!inPool(pool, folder))
      problems.push(`folder's ${name} ${JSON.stringify(folder)} is not in its pool`);
  }
  for (const name of Object.keys(variants.folder))
    if (!(name in variants.pools)) problems.push(`folder's ${name} is no pool`);
  if (count < variants.count_hint)
    problems.push(`the pools make ${count} distinct instances, fewer than count_hint ${variants.count_hint}`);
  return problems;
}

/**
 * The values placeholders read: an employee choice becomes the employee's record (with first_name,
 * and manager, the manager's record, when there is one); other choices are what they are.
 */
export function instanceValues(
  variants: ScenarioVariants,
  choices: Choices,
  directory: readonly Employee[],
): Record<string, unknown> {
  const byId = new Map(directory.map((e) => [e.id, e]));
  const person = (e: Employee) => ({ ...e, first_name: e.name.split(' ')[0] ?? e.name });
  return Object.fromEntries(
    Object.entries(choices).map(([name, choice]) => {
      const pool = variants.pools[name];
      const employee = pool !== undefined && 'employee' in pool ? byId.get(String(choice)) : undefined;
      if (employee === undefined) return [name, choice];
      const manager = employee.manager_id === null ? undefined : byId.get(employee.manager_id);
      return [name, { ...person(employee), ...(manager === undefined ? {} : { manager: person(manager) }) }];
    }),
  );
}
