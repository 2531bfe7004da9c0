import { describe, expect, it } from 'vitest';
import { allTasks, getTask } from '../../src/catalogue/built-in.js';
import { scoreTrial } from '../../src/scoring/score.js';
import { inContainer, type WorkspaceTask } from '../../src/tasks/types.js';
import { taskVersion } from '../../src/tasks/version.js';
import { craftTrial, evaluate } from './crafted-trial.js';
import { builtInTask } from './folder-files.js';

/** Tasks in the sandbox; dialogue tasks (helpdesk_*) are judged on their desk's state: test/dialogue/pack.test.ts. */
const sandboxTasks = () => allTasks().filter(inContainer);

const KINDS = ['sandbox', 'harbor', 'skill', 'dialogue'];

describe('task registry', () => {
  it('runs the task folders first (by name), then the skills, then the dialogue pack, heavy tasks last; finds each by id', () => {
    const ids = allTasks().map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    const kinds = allTasks()
      .filter((t) => t.meta.heavy !== true && (t.kind !== 'sandbox' || t.folder !== undefined))
      .map((t) => t.kind);
    expect(kinds).toEqual([...kinds].sort((a, b) => KINDS.indexOf(a) - KINDS.indexOf(b)));
    const folders = allTasks()
      .filter((t) => t.kind === 'sandbox' && t.folder !== undefined && t.meta.heavy !== true)
      .map((t) => t.id);
    expect(folders).toEqual(expect.arrayContaining(['context_manage_v1', 'debug_js_v1', 'tdd_order_v1']));
    expect(ids.slice(0, folders.length)).toEqual([...folders].sort());
    // The failure-luring set: the two light ones first, the two heavy ones last.
    const at = (id: string) => ids.indexOf(id);
    expect(Math.max(at('wrong_fix_trap_v1'), at('tdd_strict_v1'))).toBeLessThan(
      Math.min(at('long_procedure_v1'), at('big_file_edit_v1')),
    );
    const heavy = allTasks().map((t) => t.meta.heavy === true);
    expect(heavy.slice(heavy.indexOf(true)).every(Boolean)).toBe(true);
    expect(['big_file_edit_v1', 'long_procedure_v1'].map((id) => getTask(id)?.meta.heavy)).toEqual([
      true,
      true,
    ]);
    for (const id of ids) expect(getTask(id)?.id).toBe(id);
    expect(getTask('nope')).toBeUndefined();
  });

  it('registers the helpdesk pack beside the sandbox tasks', () => {
    expect(allTasks().filter((t) => t.kind === 'dialogue').length).toBeGreaterThanOrEqual(12);
    expect(sandboxTasks().length).toBeGreaterThanOrEqual(16);
  });

  it.each(sandboxTasks().map((t) => [t.id, t] as const))('%s is well formed', (_id, t) => {
    const flagIds = t.flags.map((f) => f.id);
    expect(new Set(flagIds).size).toBe(flagIds.length);
    expect(t.flags.some((f) => f.kind === 'process')).toBe(true);
    expect(t.flags.some((f) => f.kind === 'outcome')).toBe(true);
    expect(t.referenceSolution.some((turn) => turn.calls.length > 0)).toBe(true);
    expect(t.maxTurns).toBeGreaterThanOrEqual(t.referenceSolution.length);
    expect(t.prompt).toMatch(/execute_command/);
    expect(t.prompt).toMatch(/\/workspace/);
    expect(t.allowedWrites.length).toBeGreaterThan(0);
  });

  it.each(allTasks().map((t) => [t.id, t] as const))('%s has lures naming its own flags', (_id, t) => {
    const lures = t.lures ?? [];
    expect(lures.length).toBeGreaterThan(0);
    expect(new Set(lures.map((l) => l.id)).size).toBe(lures.length);
    const flagIds = new Set(t.flags.map((f) => f.id));
    for (const lure of lures) {
      expect(lure.expect.unreached.length + (lure.expect.tamper === true ? 1 : 0)).toBeGreaterThan(0);
      for (const id of lure.expect.unreached) expect(flagIds.has(id), `${lure.id}: ${id}`).toBe(true);
      expect(lure.script.some((turn) => turn.calls.length > 0)).toBe(true);
    }
  });

  it.each(sandboxTasks().map((t) => [t.id, t] as const))(
    '%s: a do-nothing trial scores 0 even if ground truth passed',
    async (_id, t) => {
      const idle = craftTrial(t, [], () => false);
      expect(scoreTrial(t.flags, await evaluate(t, idle.ctx), false)).toEqual({ passed: false, score: 0 });
      const lying = craftTrial(t, [], () => true);
      const process = t.flags.filter((f) => f.kind === 'process').map((f) => f.id);
      const outcomes = await evaluate(t, lying.ctx);
      for (const id of process) expect(outcomes[id]?.reached).toBe(false);
    },
  );
});

describe('taskVersion', () => {
  const base = builtInTask('debug_python_v1');

  it('is stable for the same task', () => {
    expect(taskVersion(base)).toBe(taskVersion({ ...base }));
    expect(taskVersion(base)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('changes with anything that changes what a trial means', () => {
    const variants: WorkspaceTask[] = [
      { ...base, prompt: `${base.prompt} ` },
      { ...base, maxTurns: base.maxTurns + 1 },
      { ...base, allowedWrites: [...base.allowedWrites, 'x'] },
      { ...base, ignored: [...base.ignored, 'x'] },
      { ...base, watchToolCaches: true },
      { ...base, files: base.files.map((f, i) => (i === 0 ? { ...f, content: `${f.content}#` } : f)) },
      { ...base, files: base.files.map((f, i) => (i === 0 ? { ...f, mode: 0o755 } : f)) },
      { ...base, hiddenFiles: [] },
      { ...base, flags: base.flags.slice(1) },
      { ...base, flags: base.flags.map((f, i) => (i === 0 ? { ...f, kind: 'outcome' } : f)) },
      { ...base, flags: base.flags.map((f, i) => (i === 0 ? { ...f, weight: 2 } : f)) },
    ];
    const versions = new Set([taskVersion(base), ...variants.map(taskVersion)]);
    expect(versions.size).toBe(variants.length + 1);
  });

  it('differs between tasks', () => {
    expect(new Set(allTasks().map(taskVersion)).size).toBe(allTasks().length);
  });
});
