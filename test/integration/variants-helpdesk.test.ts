/**
 * Seeded helpdesk scenarios through the runner (no engine: a dialogue runs in the harness): every
 * trial draws an instance (another employee, code, item, amount), the same seed draws the same
 * ones, `--variant` replays one, validate --variants proves each, and an instance's reference
 * replayed on another that asks for other actions fails its end state (the memorization check).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getTask } from '../../src/catalogue/built-in.js';
import { createScriptedModel } from '../../src/models/scripted.js';
import type { ResultFile } from '../../src/results/result-file.js';
import type { VariantChoice } from '../../src/run/trial-instances.js';
import type { DialogueTask } from '../../src/tasks/types.js';
import { harnessDigest } from '../../src/validate/harness-digest.js';
import { defaultProofDir, openProofCache } from '../../src/validate/proof-cache.js';
import { validateTasks } from '../../src/validate/validate-tasks.js';
import { ofKind, seededOf } from '../helpers/task-variants.js';
import { oracleRuns } from './oracle-run.js';

const TASKS = [
  'helpdesk_id_password_reset',
  'helpdesk_buy_monitor_under_limit',
  'helpdesk_buy_laptop_over_limit',
];
const dirs: string[] = [];

afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

function dialogueTask(id: string): DialogueTask {
  const task = getTask(id);
  if (task?.kind !== 'dialogue' || task.variants === undefined) throw new Error(`${id}: no variants`);
  return task;
}

async function oracleRun(variants: VariantChoice): Promise<ResultFile[]> {
  const resultsDir = await mkdtemp(join(tmpdir(), 'agent-bench-variants-helpdesk-'));
  dirs.push(resultsDir);
  return oracleRuns(TASKS.map(dialogueTask), { resultsDir, variants });
}

const variantsOf = (r: ResultFile) => r.trials.map((t) => t.variant);

/** What an instance asks to be done: its gold actions' arguments without their free text. */
function decisions(task: DialogueTask): string {
  return JSON.stringify(
    task.referenceSolution
      .flatMap((t) => t.calls)
      .map(({ name, arguments: { summary: _s, resolution: _r, ...rest } = {} }) => ({ name, rest })),
  );
}

describe.sequential('seeded helpdesk scenarios', () => {
  let first: ResultFile[] = [];

  it('--model oracle --k 3 runs three different instances of each and passes all', async () => {
    first = await oracleRun({ seed: 1 });
    expect(first.map((r) => r.task_id)).toEqual(TASKS);
    for (const r of first) {
      expect(
        r.trials.map((t) => t.status),
        r.task_id,
      ).toEqual(['passed', 'passed', 'passed']);
      expect(new Set(variantsOf(r)).size, r.task_id).toBe(3);
      expect(r.settings.variant_seed).toBe(1);
      // Each trial ran its own instance: the ticket is the drawn requester's.
      const task = dialogueTask(r.task_id);
      for (const t of r.trials) {
        const requester = seededOf(task).instanceOf(t.variant ?? '').variants?.values.requester;
        const tickets = t.dialogue?.final_state.tickets as { employee_id: string }[];
        expect(tickets.map((k) => k.employee_id)).toEqual([(requester as { id: string }).id]);
      }
      // Instances that ask for different things leave different desks (two draws may ask the same:
      // the same requester and item, at another price, which only an order's total shows).
      const asked = new Set(
        r.trials.map((t) => decisions(seededOf(task).instanceOf(t.variant ?? '') as DialogueTask)),
      );
      expect(asked.size, r.task_id).toBeGreaterThan(1);
      expect(
        new Set(r.trials.map((t) => JSON.stringify(t.dialogue?.final_state))).size,
        r.task_id,
      ).toBeGreaterThanOrEqual(asked.size);
    }
  });

  it('the same seed draws the same instances; another seed, others', async () => {
    const again = await oracleRun({ seed: 1 });
    expect(again.map(variantsOf)).toEqual(first.map(variantsOf));
    const other = await oracleRun({ seed: 2 });
    for (const [i, r] of other.entries())
      expect(variantsOf(r)).not.toEqual(variantsOf(first[i] as ResultFile));
  });

  it('--variant ID replays one instance in every trial, and --variant folder the file as written', async () => {
    const id = first[0]?.trials[1]?.variant;
    if (id === undefined) throw new Error('no first run');
    const [replayed] = await oracleRun({ seed: 1, replay: id });
    expect(variantsOf(replayed as ResultFile)).toEqual([id, id, id]);
    expect(replayed?.trials.every((t) => t.status === 'passed')).toBe(true);
    const folder = await oracleRun({ seed: 1, replay: 'folder' });
    for (const r of folder) expect(variantsOf(r)).toEqual(['folder', 'folder', 'folder']);
  });

  it("an instance's reference replayed on another asking for other actions fails its end state", async () => {
    let differing = 0;
    for (const r of first) {
      const task = dialogueTask(r.task_id);
      const instances = variantsOf(r).map((id) => ofKind(seededOf(task).instanceOf(id ?? ''), 'dialogue'));
      for (const a of instances)
        for (const b of instances) {
          if (a === b || decisions(a) === decisions(b)) continue;
          differing++;
          const memorized = await b.environment.runTrial({
            index: 0,
            model: createScriptedModel('memorized', a.referenceSolution),
            maxTurns: b.maxTurns,
          });
          expect(memorized.status, `${r.task_id}: ${a.variants?.instance} on ${b.variants?.instance}`).toBe(
            'failed',
          );
          expect(memorized.flags.end_state?.reached).toBe(false);
        }
    }
    expect(differing).toBeGreaterThanOrEqual(TASKS.length * 2);
  });

  it('validate --variants 3 proves three instances of each, with no sandbox', async () => {
    const rows = await validateTasks(TASKS.map(dialogueTask), {
      openSandbox: () => {
        throw new Error('a dialogue needs no sandbox');
      },
      variants: 3,
      parallel: 3,
      proofs: {
        cache: openProofCache({
          dir: defaultProofDir(),
          onNote: (line) => void process.stderr.write(`${line}\n`),
        }),
        inputs: { image: 'none', harness: harnessDigest() },
      },
    });
    expect(rows.filter((r) => r.kind !== 'passed' && r.kind !== 'cached')).toEqual([]);
    for (const id of TASKS) {
      const instances = new Set(
        rows.filter((r) => r.taskId === id).map((r) => /^instance (\S+):/.exec(r.run)?.[1]),
      );
      expect(instances.size, id).toBe(3);
      expect(instances.has(undefined)).toBe(false);
      expect(instances).toEqual(new Set(variantsOf(first[TASKS.indexOf(id)] as ResultFile)));
    }
  });
});
