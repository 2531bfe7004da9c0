/** `task from-trial`: a draft task folder from a failed trial, what validate says is missing, and a completed draft. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadTasks } from '../../../src/catalogue/load-tasks.js';
import { TRIAL_LURE_ID } from '../../../src/catalogue/native/from-trial.js';
import { taskFromTrialCommand } from '../../../src/cli/commands/task.js';
import type { ResultFile } from '../../../src/results/result-file.js';
import { withHash } from '../../../src/results/store.js';
import { UsageError } from '../../../src/util/errors.js';
import { builtInTask } from '../../tasks/folder-files.js';
import { completeDraft, FIXED, writeUnreadFixTrial } from './from-trial-draft.js';

const dirs: string[] = [];
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'from-trial-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const task = builtInTask('debug_python_v1');
const fixedModule = readFileSync(join(import.meta.dirname, '../../../tasks/debug_python_v1', FIXED), 'utf8');
const quiet = { write: () => true };

describe('task from-trial', () => {
  it("drafts the trial's task as it started, with the trial replayed as a lure", async () => {
    const file = await writeUnreadFixTrial(temp(), fixedModule);
    const draft = join(temp(), 'draft');
    let said = '';
    await taskFromTrialCommand(file, draft, { trial: 2 }, { write: (s: string) => (said += s) });
    expect(said).toMatch(
      /^Draft task written to \S+ \(\d+ files\)\. Fill in what TODO\.md lists, then: agent-bench validate --tasks-dir /,
    );
    expect(readFileSync(join(draft, 'instruction.md'), 'utf8')).toBe(task?.prompt);
    for (const f of task?.files ?? [])
      expect(readFileSync(join(draft, 'files', f.path), 'utf8')).toBe(f.content);
    for (const f of task?.hiddenFiles ?? [])
      expect(readFileSync(join(draft, 'hidden', f.path), 'utf8')).toBe(f.content);
    const m = JSON.parse(readFileSync(join(draft, 'task.json'), 'utf8'));
    expect(m.id).toBe('debug_python_v1_t2');
    expect(m.reference_solution).toEqual(task?.referenceSolution);
    expect(m.lures).toHaveLength(1);
    expect(m.lures[0].id).toBe(TRIAL_LURE_ID);
    expect(m.lures[0].description).toMatch(/^What small-model did in .+, trial 2 \(failed: crafted\)\.$/);
    expect(m.lures[0].script).toEqual([
      { calls: [{ name: 'execute_command', arguments: { command: 'python3 -m pytest -q' } }] },
      {
        text: 'I will rewrite the parser.',
        calls: [{ name: 'write_file', arguments: { path: 'durations.py', content: fixedModule } }],
      },
      { calls: [{ name: 'execute_command', arguments: { command: 'python3 -m pytest -q' } }] },
      { text: 'Fixed it.', calls: [] },
    ]);
    expect(JSON.parse(readFileSync(join(draft, 'trial', 'turns.json'), 'utf8'))).toHaveLength(3);
    expect(readFileSync(join(draft, 'TODO.md'), 'utf8')).toMatch(/Still to do/);
  });

  it("leaves to the author exactly what validate then names: the description, the flags, the lure's miss", async () => {
    const file = await writeUnreadFixTrial(temp(), fixedModule);
    const draft = join(temp(), 'draft');
    await taskFromTrialCommand(file, draft, { trial: 1 }, quiet);
    let problems = '';
    try {
      loadTasks([draft], '--tasks-dir');
    } catch (err) {
      problems = (err as Error).message;
    }
    expect(problems.split('\n').map((l) => l.replace(/^.*task\.json: /, '').replace(/:.*$/, ''))).toEqual([
      'meta.description',
      'flags',
      'lures[0].expect.unreached',
    ]);
    const manifest = join(draft, 'task.json');
    writeFileSync(manifest, JSON.stringify(completeDraft(JSON.parse(readFileSync(manifest, 'utf8')))));
    const [loaded] = loadTasks([draft], '--tasks-dir').tasks;
    expect(loaded?.lures?.[0]?.expect.unreached).toEqual(['file_read']);
  });

  it('refuses in one line: no such trial, a trial not measured, an unknown task, a folder in use', async () => {
    const dir = temp();
    const file = await writeUnreadFixTrial(dir, fixedModule);
    const refused = (f: string, to: string, trial: number) =>
      taskFromTrialCommand(f, to, { trial }, quiet).then(
        () => '',
        (err: unknown) => {
          expect(err).toBeInstanceOf(UsageError);
          return (err as Error).message;
        },
      );
    expect(await refused(file, join(dir, 'd1'), 3)).toBe(`${file} has no trial 3; its trials: 1, 2`);
    expect(await refused(join(dir, 'none.json'), join(dir, 'd2'), 1)).toMatch(/none\.json: /);
    const variant = (name: string, change: (r: ResultFile) => ResultFile) => {
      const { result_hash: _, ...r } = JSON.parse(readFileSync(file, 'utf8')) as ResultFile;
      const path = join(dir, name);
      writeFileSync(path, JSON.stringify(withHash(change(r as ResultFile))));
      return path;
    };
    const unknown = variant('unknown.json', (r) => ({ ...r, task_id: 'nope_v1' }));
    expect(await refused(unknown, join(dir, 'd3'), 1)).toMatch(
      /^the trial's task nope_v1 is not known here \(.*\); give its folder with --tasks-dir$/,
    );
    const broken = variant('broken.json', (r) => ({
      ...r,
      trials: r.trials.map((t) => ({
        ...t,
        status: 'error' as const,
        failure_reason: 'unreachable: connection failed',
      })),
    }));
    expect(await refused(broken, join(dir, 'd4'), 1)).toMatch(
      /was not measured \(unreachable: connection failed\): nothing to draft from$/,
    );
    const inUse = temp();
    writeFileSync(join(inUse, 'x'), 'x');
    expect(await refused(file, inUse, 1)).toBe(
      `${inUse} is not an empty folder: give a new one for the draft`,
    );
  });
});
