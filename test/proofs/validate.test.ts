/**
 * `agent-bench validate` on the whole suite, through the real sandbox: every oracle passes, doing
 * nothing scores 0, every lure and cheat is caught on exactly its flags, and every alternate (a
 * legitimate solution in another style) passes; each variant task on three of its instances. With
 * the proof cache on, as CI runs it: a task unchanged since a run that proved it (same content,
 * image and harness) is not proven again, and its cached pass counts only under the key of what is
 * here now. The command started with the test run (suite-validate.setup.ts); this reads its rows.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { allTasks } from '../../src/catalogue/built-in.js';
import { ensureImage } from '../../src/sandbox/index.js';
import { hasVariants } from '../../src/tasks/variants/instances.js';
import { harnessDigest } from '../../src/validate/harness-digest.js';
import { defaultProofDir } from '../../src/validate/proof-cache.js';
import { proofKey, taskFilesDigest } from '../../src/validate/proof-key.js';
import { formatValidation, type ValidationRow } from '../../src/validate/rows.js';
import { fileAppears } from '../helpers/file-appears.js';
import { SUITE_VARIANTS, type SuiteValidateExit } from './suite-validate.setup.js';

/** The longest the whole suite may take to prove, cold, on a loaded 2-core machine. */
const WAIT_MS = 60 * 60_000;

/** How the command ended, once it has (it is usually long over when this file runs, last). */
async function exited(dir: string): Promise<SuiteValidateExit> {
  const file = join(dir, 'exit.json');
  await fileAppears(file, WAIT_MS, 'validate');
  return JSON.parse(readFileSync(file, 'utf8')) as SuiteValidateExit;
}

describe('validate, whole suite', () => {
  it(
    'every task is solvable and not lenient',
    async () => {
      const dir = inject('suiteValidateDir');
      const exit = await exited(dir);
      const log = readFileSync(join(dir, 'validate.log'), 'utf8');
      const rowsFile = join(dir, 'rows.json');
      // No rows: the command failed before proving anything (its log says why).
      expect(existsSync(rowsFile), log.slice(-4000)).toBe(true);
      const { rows } = JSON.parse(readFileSync(rowsFile, 'utf8')) as { rows: ValidationRow[] };
      const tasks = allTasks();
      const cached = new Set(rows.filter((r) => r.kind === 'cached').map((r) => r.taskId));
      process.stderr.write(
        `validate, whole suite: ${(exit.wallMs / 1000).toFixed(1)} s wall (started with the test run) for ${rows.length} validations of ${tasks.length} tasks (--parallel ${exit.parallel} --variants ${SUITE_VARIANTS}); ${tasks.length - cached.size} tasks proven, ${cached.size} from cached proofs in ${defaultProofDir()}\n`,
      );
      const failed = rows.filter((r) => r.kind !== 'passed' && r.kind !== 'cached');
      expect(failed, formatValidation(failed)).toEqual([]);
      expect(exit.code, log.slice(-4000)).toBe(0);
      const inputs = { image: (await ensureImage()).id, harness: harnessDigest() };
      for (const task of tasks) {
        const own = rows.filter((r) => r.taskId === task.id);
        const variants = hasVariants(task);
        // A cached pass stands only under the key of the task's content, image and harness as they are now
        // (a variant task's rows are its instances', keyed by each instance's files or drawn scenario).
        const key = proofKey(task, { ...inputs, files: taskFilesDigest(task) });
        if (!variants)
          for (const row of own)
            if (row.kind === 'cached') expect(row.proof.key, task.id).toBe(key);
            else {
              // Three instances, each proven whole (a row per run, prefixed by the instance).
              const instances = new Set(own.map((r) => /^instance (\S+): /.exec(r.run)?.[1]));
              expect(instances.has(undefined), task.id).toBe(false);
              expect(instances.size, task.id).toBe(SUITE_VARIANTS);
            }
        // Every task (each instance of a variant task) was judged on its oracle, on doing nothing, and
        // on at least one lure.
        const byInstance = new Map<string, ValidationRow[]>();
        for (const r of own) {
          const instance = /^instance (\S+): /.exec(r.run)?.[1] ?? '';
          byInstance.set(instance, [...(byInstance.get(instance) ?? []), r]);
        }
        for (const [instance, group] of byInstance) {
          const at = `${task.id} ${instance}`;
          const runs = group
            .map((r) => r.run.replace(/^instance \S+: /, ''))
            .filter((r) => r !== 'generator');
          expect(runs.slice(0, 2), at).toEqual(['oracle', 'do-nothing']);
          expect(runs.length, at).toBeGreaterThanOrEqual(3);
          // A skill is also judged on the automatic lures its manifest implies.
          if (task.kind === 'skill') expect(runs, at).toContain('auto:hallucinated_step');
          // Dialogue tasks (the helpdesk pack) are proven by their reference and lures on the desk's state.
          if (task.kind === 'dialogue') continue;
          expect(runs.filter((r) => r.startsWith('alternate:')).length, at).toBeGreaterThanOrEqual(3);
          expect(runs.filter((r) => r.startsWith('cheat:')).length, at).toBeGreaterThanOrEqual(3);
        }
      }
    },
    WAIT_MS + 60_000,
  );
});
