/**
 * `agent-bench validate --metamorphic` on the whole suite, through the real sandbox: every oracle
 * passes, doing nothing scores 0, every lure and cheat is caught on exactly its flags, every
 * alternate (a legitimate solution in another style) passes, and so do the runs derived from each
 * reference (its mutants caught, its work in other styles passing); each variant task on three of
 * its instances. With
 * the proof cache on, as CI runs it: a task unchanged since a run that proved it (same content,
 * image and harness) is not proven again, and its cached pass counts only under the key of what is
 * here now. It runs the command as a user would (`validate --json` writes its rows), last and alone:
 * its proofs saturate the CPU, which would make the timing-bound tests beside them flaky.
 */
import { spawn } from 'node:child_process';
import { existsSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allTasks } from '../../src/catalogue/built-in.js';
import { ensureImage } from '../../src/sandbox/index.js';
import { hasVariants } from '../../src/tasks/variants/instances.js';
import { harnessDigest } from '../../src/validate/harness-digest.js';
import { defaultProofDir } from '../../src/validate/proof-cache.js';
import { proofKey, taskFilesDigest } from '../../src/validate/proof-key.js';
import type { ValidationRow } from '../../src/validate/rows.js';

/** Instances proven of each variant task: `validate --variants 3`, as the issue on variants asks. */
const SUITE_VARIANTS = 3;

/** The longest the whole suite may take to prove, cold, on a 2-core machine. */
const WAIT_MS = 60 * 60_000;

/** Runs `agent-bench validate` on every task; resolves with its exit code, wall time and log. */
async function validateSuite(
  dir: string,
  parallel: number,
): Promise<{ code: number | null; wallMs: number; log: string }> {
  const root = join(import.meta.dirname, '../..');
  const logFile = join(dir, 'validate.log');
  const log = openSync(logFile, 'w');
  const started = Date.now();
  const child = spawn(
    process.execPath,
    [
      join(root, 'bin/agent-bench'),
      'validate',
      '--parallel',
      String(parallel),
      '--variants',
      String(SUITE_VARIANTS),
      // The runs derived from each reference too: its mutants caught, its work in other styles passing.
      '--metamorphic',
      '--json',
      join(dir, 'rows.json'),
    ],
    { cwd: root, stdio: ['ignore', log, log] },
  );
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, wallMs: Date.now() - started, log: readFileSync(logFile, 'utf8') };
}

describe('validate, whole suite', () => {
  it(
    'every task is solvable and not lenient',
    async ({ task: test }) => {
      const dir = await mkdtemp(join(tmpdir(), 'agent-bench-suite-validate-'));
      // Twice the cores: a proof waits on the engine (execs, resets) as much as it computes.
      const parallel = availableParallelism() * 2;
      const exit = await validateSuite(dir, parallel);
      const { log } = exit;
      const rowsFile = join(dir, 'rows.json');
      // No rows: the command failed before proving anything (its log says why).
      expect(existsSync(rowsFile), log.slice(-4000)).toBe(true);
      const { rows } = JSON.parse(readFileSync(rowsFile, 'utf8')) as { rows: ValidationRow[] };
      const tasks = allTasks();
      const cached = new Set(rows.filter((r) => r.kind === 'cached').map((r) => r.taskId));
      // Also at the end of the run (summary-reporter.ts): where CI's time went, and whether proofs were cached.
      test.meta.ciNote = `validate, whole suite: ${(exit.wallMs / 1000).toFixed(1)} s wall for ${rows.length} validations of ${tasks.length} tasks (--parallel ${parallel} --variants ${SUITE_VARIANTS}); ${tasks.length - cached.size} tasks proven, ${cached.size} from cached proofs in ${defaultProofDir()}`;
      process.stderr.write(`${test.meta.ciNote}\n`);
      const failed = rows
        .filter((r) => r.kind !== 'passed' && r.kind !== 'cached' && r.kind !== 'skipped')
        .map((r) => `${r.taskId} ${r.run}: ${r.kind}: ${r.detail}`);
      // On one line: the end of the run shows an error's first line (summary-reporter.ts).
      expect(failed, `${failed.length} validations failed: ${failed.join(' | ')}`).toEqual([]);
      expect(exit.code, log.slice(-4000)).toBe(0);
      const inputs = { image: (await ensureImage()).id, harness: harnessDigest() };
      for (const task of tasks) {
        const own = rows.filter((r) => r.taskId === task.id);
        const variants = hasVariants(task);
        // A cached pass stands only under the key of the task's content, image and harness as they are now
        // (a variant task's rows are its instances', keyed by each instance's files or drawn scenario).
        const key = proofKey(task, { ...inputs, files: taskFilesDigest(task), metamorphic: true });
        if (!variants) {
          for (const row of own) if (row.kind === 'cached') expect(row.proof.key, task.id).toBe(key);
        } else {
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
          // The metamorphic runs: undoing the reference's work is caught, and its work in another
          // style still passes (validate --metamorphic, src/validate/metamorphic/).
          expect(runs, at).toContain('metamorphic:revert_change');
          expect(runs, at).toContain('metamorphic:explore_first');
          expect(runs.filter((r) => r.startsWith('alternate:')).length, at).toBeGreaterThanOrEqual(3);
          expect(runs.filter((r) => r.startsWith('cheat:')).length, at).toBeGreaterThanOrEqual(3);
        }
      }
    },
    WAIT_MS + 60_000,
  );
});
