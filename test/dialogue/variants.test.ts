/**
 * Seeded helpdesk instances: a scenario's variants block draws its employees, codes and amounts
 * from the instance id alone; every drawn instance is sound (reference and alternates pass, lures
 * and cheats caught, on their flags); a broken block, a placeholder with no value or a gold action
 * failing on an instance is a one-line load error; and one instance's answer fails another.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HELPDESK_DIR, loadPack, type Scenario } from '../../src/dialogue/pack.js';
import { dialogueTasks } from '../../src/dialogue/task.js';
import { seededIndex } from '../../src/dialogue/variants/seeded-index.js';
import { planShard } from '../../src/run/shard-plan.js';
import { trialInstances } from '../../src/run/trial-instances.js';
import type { DialogueTask } from '../../src/tasks/types.js';
import { instanceSeed } from '../../src/tasks/variants/instance-seed.js';
import { instanceSource } from '../../src/tasks/variants/instances.js';
import { taskVersion } from '../../src/tasks/version.js';
import { UsageError } from '../../src/util/errors.js';
import { validateTasks } from '../../src/validate/validate-tasks.js';
import { runSettings } from '../helpers/run-settings.js';
import { PACK, runScript, scenario, transcript, unreached } from './scenario-runs.js';

const VARIANT_SCENARIOS = [
  'helpdesk_id_password_reset',
  'helpdesk_buy_monitor_under_limit',
  'helpdesk_buy_laptop_over_limit',
];
/** Instance ids as a run draws them are hashes; any id draws. */
const ids = (n: number) => Array.from({ length: n }, (_, i) => `test-instance-${i}`);

function drawn(s: Scenario, id: string): Scenario {
  if (s.variants === undefined) throw new Error(`${s.file.id} has no variants`);
  return s.variants.draw(id);
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A copy of the pack with one scenario file edited. */
function packWith(file: string, edit: (json: Record<string, unknown>) => unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'pack-variants-'));
  dirs.push(dir);
  cpSync(HELPDESK_DIR, dir, { recursive: true });
  const path = join(dir, 'scenarios', file);
  writeFileSync(
    path,
    JSON.stringify(edit(JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>)),
  );
  return dir;
}

type Variants = { count_hint: number; pools: Record<string, unknown>; folder: Record<string, unknown> };
const variantsOf = (j: Record<string, unknown>) => j.variants as Variants;

describe('drawing an instance', () => {
  it('is a function of the id and the pool: another id or pool, another index', () => {
    expect(seededIndex('a', 'code', 1000)).toBe(seededIndex('a', 'code', 1000));
    const indexes = new Set(ids(50).map((id) => seededIndex(id, 'code', 1000)));
    expect(indexes.size).toBeGreaterThan(40);
  });

  it.each(VARIANT_SCENARIOS)('%s: the file as written is the folder instance', (id) => {
    const s = scenario(id);
    expect(s.variants?.instance).toBeUndefined();
    expect(s.variants?.spec.count_hint).toBeGreaterThanOrEqual(20);
    expect(s.file.requester).toBe(s.variants?.spec.folder.requester);
  });

  it.each(VARIANT_SCENARIOS)(
    '%s: the same id draws the same instance, 25 ids at least 20 distinct ones',
    (id) => {
      const s = scenario(id);
      const instances = ids(25).map((i) => drawn(s, i));
      expect(drawn(s, 'test-instance-3')).toEqual({ ...instances[3], variants: expect.anything() });
      expect(JSON.stringify(drawn(s, 'test-instance-3').file)).toBe(JSON.stringify(instances[3]?.file));
      const distinct = new Set(instances.map((i) => JSON.stringify(i.variants?.values)));
      expect(distinct.size).toBeGreaterThanOrEqual(20);
      // Other employees, not only other numbers.
      expect(new Set(instances.map((i) => i.file.requester)).size).toBeGreaterThanOrEqual(4);
      for (const i of instances) expect(JSON.stringify(i.file)).not.toContain('{{');
    },
  );

  it('keeps the verdict: the monitors within $500, the item asked for over it, the approver the manager', () => {
    const price = (s: Scenario, sku: unknown) => s.seed.catalog.find((c) => c.sku === sku)?.price_usd ?? 0;
    for (const id of ids(25)) {
      const monitor = drawn(scenario('helpdesk_buy_monitor_under_limit'), id);
      const order = monitor.file.gold_actions.find((a) => a.name === 'place_order')?.arguments;
      expect(price(monitor, order?.sku) * Number(order?.quantity)).toBeLessThanOrEqual(500);
      expect(price(monitor, 'MON-34')).toBeGreaterThan(500);
      const laptop = drawn(scenario('helpdesk_buy_laptop_over_limit'), id);
      const approval = laptop.file.gold_actions.find((a) => a.name === 'request_approval')?.arguments;
      expect(price(laptop, approval?.sku)).toBeGreaterThan(500);
      const requester = laptop.seed.employees.find((e) => e.id === laptop.file.requester);
      expect(approval?.approver_id).toBe(requester?.manager_id);
    }
  });
});

describe.each(VARIANT_SCENARIOS)('%s: every drawn instance is sound', (id) => {
  const instances = ids(20).map((i) => [i, drawn(scenario(id), i)] as const);
  it.each(instances)(
    'instance %s: the reference and alternates pass, lures and cheats are caught',
    async (_i, s) => {
      const ref = await runScript(s, s.file.reference);
      expect(ref.passed, `${unreached(ref).join(', ')}\n${transcript(ref)}`).toBe(true);
      for (const alt of s.file.alternates) expect((await runScript(s, alt.script)).passed, alt.id).toBe(true);
      for (const run of [...s.file.lures, ...s.file.cheats]) {
        const t = await runScript(s, run.script);
        expect(t.passed, run.id).toBe(false);
        expect(unreached(t), run.id).toEqual(expect.arrayContaining(run.expect.unreached));
      }
    },
  );
});

/** What an instance asks to be done: its gold actions without their free text. */
function decisions(s: Scenario): string {
  return JSON.stringify(
    s.file.gold_actions.map(({ name, arguments: { summary: _s, resolution: _r, ...rest } }) => ({
      name,
      rest,
    })),
  );
}

describe('memorization', () => {
  it.each(VARIANT_SCENARIOS)(
    "%s: instance A's reference replayed on instance B fails the end state, wherever B asks for other actions",
    async (id) => {
      const instances = ids(11).map((i) => drawn(scenario(id), i));
      const pairs = instances.slice(1).map((b, i) => [instances[i] as Scenario, b] as const);
      const differing = pairs.filter(([a, b]) => decisions(a) !== decisions(b));
      // Employees, items, quantities and codes all vary: two draws rarely ask for the same actions.
      expect(differing.length).toBeGreaterThanOrEqual(7);
      for (const [a, b] of differing) {
        const replayed = await runScript(b, a.file.reference);
        expect(replayed.passed, transcript(replayed)).toBe(false);
        expect(unreached(replayed)).toContain('end_state');
      }
    },
  );
});

describe('a broken variants block is a one-line load error naming the file', () => {
  const file = 'id_password_reset.json';
  const load = (dir: string) => () => loadPack(dir);

  it('refuses pools that make fewer instances than count_hint, or a pool of one choice', () => {
    const few = packWith(file, (j) => {
      variantsOf(j).count_hint = 100_000_000;
      return j;
    });
    expect(load(few)).toThrow(UsageError);
    expect(load(few)).toThrow(
      /id_password_reset\.json: variants: the pools make 9000000 distinct instances, fewer than count_hint 100000000$/,
    );
    const one = packWith(file, (j) => {
      variantsOf(j).pools.requester = { employee: ['E1200'] };
      return j;
    });
    expect(load(one)).toThrow(/variants: pool requester has one choice/);
  });

  it('refuses an employee not in the directory and a folder choice outside its pool', () => {
    const unknown = packWith(file, (j) => {
      variantsOf(j).pools.requester = { employee: ['E1200', 'E9999'] };
      return j;
    });
    expect(load(unknown)).toThrow(/pool requester: no employee E9999/);
    const outside = packWith(file, (j) => {
      variantsOf(j).folder.code = '12';
      return j;
    });
    expect(load(outside)).toThrow(/folder's code "12" is not in its pool/);
  });

  it('refuses a placeholder no pool fills, naming scenario and key', () => {
    const dir = packWith(file, (j) => ({ ...j, title: 'Reset for {{instance.requester.nickname}}' }));
    expect(load(dir)).toThrow(UsageError);
    expect(load(dir)).toThrow(
      /id_password_reset\.json: scenario helpdesk_id_password_reset: \{\{instance\.requester\.nickname\}\}: instance folder has no key "requester\.nickname" \(its variants pools\)/,
    );
  });

  it('names scenario and instance when a gold action fails on a drawn instance only', async () => {
    const dir = packWith(file, (j) => {
      const v = variantsOf(j);
      v.pools.ticket = { one_of: ['T-1001', 'T-1002'] };
      v.folder.ticket = 'T-1001';
      const gold = j.gold_actions as { name: string; arguments: Record<string, unknown> }[];
      const close = gold.find((g) => g.name === 'close_ticket');
      if (close !== undefined) close.arguments.ticket_id = '{{instance.ticket}}';
      return j;
    });
    // validate --variants proves the instances a run draws: one that does not draw is a failed row.
    const task = dialogueTasks(loadPack(dir)).filter((t) => t.id === 'helpdesk_id_password_reset');
    const rows = await validateTasks(task, {
      openSandbox: () => Promise.reject(new Error('no sandbox')),
      variants: 6,
    });
    expect(rows.filter((r) => r.kind === 'failed').map((r) => `${r.run}: ${r.detail}`)).toContainEqual(
      expect.stringMatching(
        /^instance (\S+): draw: .*\(instance \1\): scenario helpdesk_id_password_reset: gold action 5/,
      ),
    );
    const s = loadPack(dir).scenarios.find((x) => x.file.id === 'helpdesk_id_password_reset');
    const bad = ids(20).find((i) => seededIndex(i, 'ticket', 2) === 1) ?? '';
    expect(() => drawn(s as Scenario, bad)).toThrow(UsageError);
    expect(() => drawn(s as Scenario, bad)).toThrow(
      new RegExp(
        `id_password_reset\\.json \\(instance ${bad}\\): scenario helpdesk_id_password_reset: gold action 5 \\(close_ticket\\) fails`,
      ),
    );
  });
});

describe('trials of a seeded scenario', () => {
  const task = dialogueTasks(PACK).find((t) => t.id === 'helpdesk_id_password_reset') as DialogueTask;
  const version = taskVersion(task);
  // Drawn in the harness: neither the instance cache nor a sandbox is touched.
  const noGenerator = instanceSource({
    load: () => Promise.reject(new Error('a dialogue draws no generated instance')),
    save: () => Promise.reject(new Error('a dialogue caches no instance')),
  });
  const noSandbox = () => Promise.reject(new Error('a dialogue needs no sandbox'));

  it('draws trial i the instance a run with that seed draws, in the harness', async () => {
    const instances = trialInstances(task, version, { seed: 1 }, noGenerator);
    if (instances === null) throw new Error('no instances');
    expect(instances.settings).toEqual({ variant_seed: 1 });
    const id = instanceSeed({ taskId: task.id, taskVersion: version, variantSeed: 1, trialIndex: 2 });
    expect(instances.idOf(2)).toBe(id);
    const drawnTask = await instances.taskOf(2, noSandbox);
    expect(drawnTask.variants?.instance).toBe(id);
    expect(new Set([0, 1, 2].map((i) => instances.idOf(i))).size).toBe(3);
    expect(trialInstances(task, version, { seed: 2 }, noGenerator)?.idOf(2)).not.toBe(id);
  });

  it('replays --variant folder as the file, --variant ID as that instance, and has none without variants', async () => {
    const folder = trialInstances(task, version, { seed: 1, replay: 'folder' }, noGenerator);
    expect(await folder?.taskOf(0, noSandbox)).toBe(task);
    const one = trialInstances(task, version, { seed: 1, replay: 'abc' }, noGenerator);
    const replayed = await one?.taskOf(1, noSandbox);
    expect(replayed?.variants?.instance).toBe('abc');
    expect(one?.settings).toEqual({ variant_seed: 1, variant: 'abc' });
    const plain = dialogueTasks(PACK).find((t) => t.id === 'helpdesk_oos_payroll') as DialogueTask;
    expect(trialInstances(plain, taskVersion(plain), { seed: 1 }, noGenerator)).toBeNull();
  });

  it('makes shards drawn with another seed another run', () => {
    const group = (seed: number) =>
      planShard({
        spec: { index: 1, count: 2 },
        tasks: [task],
        settings: runSettings({ k: 3 }),
        variants: { seed },
      }).group;
    expect(group(1)).not.toBe(group(2));
    expect(group(1)).toBe(group(1));
  });
});
