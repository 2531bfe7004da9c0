/**
 * The proof key changes with every input that could change a verdict (a task file, the flag code, a
 * script validate runs, a field no other hash knows of, the image, the harness), and with nothing
 * else (not the folder's place on disk).
 */
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadTaskFolder } from '../../src/catalogue/native/load.js';
import type { Task } from '../../src/tasks/types.js';
import { harnessDigest } from '../../src/validate/harness-digest.js';
import { type ProofInputs, proofKey, taskFilesDigest } from '../../src/validate/proof-key.js';

const TASK = join(import.meta.dirname, '../../tasks/doc_trap_v1');
const INPUTS = { image: 'sha256:aaa', harness: '0.1.0:bbb' };

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'proof-key-'));
  temps.push(dir);
  return dir;
}

/** A copy of a real task folder, to edit. */
function copyTask(): string {
  const dir = join(temp(), 'doc_trap_v1');
  cpSync(TASK, dir, { recursive: true });
  return dir;
}

function keyOf(dir: string, inputs: Omit<ProofInputs, 'files'> = INPUTS): string {
  const task = loadTaskFolder(dir);
  return proofKey(task, { ...inputs, files: taskFilesDigest(task) });
}

function edit(path: string, change: (text: string) => string): void {
  writeFileSync(path, change(readFileSync(path, 'utf8')));
}

describe('proofKey', () => {
  it('is the same for the same content wherever the folder is', () => {
    expect(keyOf(copyTask())).toBe(keyOf(copyTask()));
  });

  it.each([
    ['a file the agent works on', 'files/README.md'],
    ['the flag code', 'flags.ts'],
    ["a script validate runs (the oracle's)", 'solution/deploy/release.env'],
    ['a field no other hash holds (task.toml meta)', 'task.toml'],
  ])('changes when %s changes', (_what, file) => {
    const dir = copyTask();
    const before = keyOf(dir);
    edit(join(dir, file), (text) => `${text}\n# edited\n`);
    expect(keyOf(dir)).not.toBe(before);
  });

  it('changes when a file only becomes executable', () => {
    const dir = copyTask();
    const before = keyOf(dir);
    chmodSync(join(dir, 'files/README.md'), 0o755);
    expect(keyOf(dir)).not.toBe(before);
  });

  it('changes with the image and with the harness', () => {
    const dir = copyTask();
    const before = keyOf(dir);
    expect(keyOf(dir, { ...INPUTS, image: 'sha256:ccc' })).not.toBe(before);
    expect(keyOf(dir, { ...INPUTS, harness: '0.1.0:ddd' })).not.toBe(before);
  });

  it('changes with each script and expectation of a task built in memory', () => {
    const task = loadTaskFolder(copyTask());
    const key = (t: Task): string => proofKey(t, { ...INPUTS, files: 'same' });
    const lure = task.lures?.[0];
    if (lure === undefined) throw new Error('doc_trap_v1 has lures');
    const variants: Task[] = [
      { ...task, referenceSolution: [] },
      { ...task, lures: [{ ...lure, expect: { ...lure.expect, tamper: true } }] },
      { ...task, lures: [{ ...lure, script: [] }] },
      { ...task, alternates: [] },
      { ...task, cheats: [] },
      { ...task, maxTurns: task.maxTurns + 1 },
      { ...task, watchToolCaches: true },
      { ...task, kind: 'skill', source: { folders: [], skill: 'sha256:eee' }, mountedFiles: [] },
      {
        ...task,
        environment: { ...task.environment, mounts: [{ hostPath: '/h', containerPath: '/workspace/skill' }] },
      },
    ];
    const keys = new Set([key(task), ...variants.map(key)]);
    expect(keys.size).toBe(variants.length + 1);
  });

  it('leaves the image out for a dialogue task, which runs in the harness', () => {
    const task = loadTaskFolder(copyTask());
    const dialogue: Task = {
      ...task,
      kind: 'dialogue',
      environment: { place: 'harness', runTrial: () => Promise.reject(new Error('unused')) },
      source: { folders: [], dialogue: 'sha256:fff' },
      dialogue: { pack: '/p', dimension: 'd' },
    };
    const key = (image: string | null): string => proofKey(dialogue, { ...INPUTS, image, files: 'same' });
    expect(key('sha256:one')).toBe(key(null));
  });
});

describe('harnessDigest', () => {
  /** A package root with code (some a proof runs, some not), the sandbox's scripts, a module task and a task folder. */
  function fakeRoot(): string {
    const root = temp();
    const files: Record<string, string> = {
      'package.json': '{"version":"0.1.0"}',
      'src/cli/commands/validate.ts': "import { x } from '../../validate/judge.js';",
      'src/validate/judge.ts': "export const x = 1;\nexport * from './rows.js';",
      'src/validate/rows.ts': "export const later = () => import('../scoring/score.js');",
      'src/scoring/score.ts': 'export const s = 1;',
      'src/kit/flag.ts': 'export const flag = 1;',
      'src/report/matrix.ts': "import { x } from '../validate/judge.js';",
      'dist/src/cli/commands/validate.js': "import { x } from '../../validate/judge.js';",
      'dist/src/validate/judge.js': "export const x = 1;\nexport * from './rows.js';",
      'dist/src/validate/rows.js': "export const later = () => import('../scoring/score.js');",
      'dist/src/scoring/score.js': 'export const s = 1;',
      'dist/src/report/matrix.js': "import { x } from '../validate/judge.js';",
      'sandbox/exec-wrapper.sh': '#!/bin/sh',
      'tasks/index.ts': 'export {};',
      'tasks/shared/script-steps.ts': 'export {};',
      'tasks/ts_typing_v1/index.ts': 'export {};',
      'tasks/ts_typing_v1/files/app.ts': "import { y } from '../../../src/report/matrix.js';",
      'tasks/doc_trap_v1/task.toml': 'max_turns = 12',
      'tasks/doc_trap_v1/flags.ts': "import { flag } from '../../src/kit/flag.js';",
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return root;
  }

  it.each([
    'src/cli/commands/validate.ts',
    'src/validate/judge.ts',
    'src/validate/rows.ts',
    'src/scoring/score.ts',
    'src/kit/flag.ts',
    'dist/src/validate/judge.js',
    'dist/src/scoring/score.js',
    'sandbox/exec-wrapper.sh',
    'tasks/index.ts',
    'tasks/shared/script-steps.ts',
    'tasks/ts_typing_v1/index.ts',
    'package.json',
  ])('changes when %s changes (code a proof runs, static, dynamic or re-exported)', (file) => {
    const root = fakeRoot();
    const before = harnessDigest(root);
    expect(harnessDigest(root)).toBe(before);
    edit(join(root, file), (text) => `${text}\n// edited`);
    expect(harnessDigest(root)).not.toBe(before);
  });

  // (tasks/ts_typing_v1/files/app.ts is a task's data: hashed, but its imports are not followed.)
  it.each(['src/report/matrix.ts', 'dist/src/report/matrix.js'])(
    'does not change when %s changes: no proof runs it',
    (file) => {
      const root = fakeRoot();
      const before = harnessDigest(root);
      edit(join(root, file), (text) => `${text}\n// edited`);
      expect(harnessDigest(root)).toBe(before);
    },
  );

  it('changes when a module a proof runs appears or is removed, or dist/ is missing', () => {
    const root = fakeRoot();
    const before = harnessDigest(root);
    writeFileSync(join(root, 'src/validate/new.ts'), '');
    edit(join(root, 'src/validate/judge.ts'), (text) => `${text}\nimport './new.js';`);
    const withNew = harnessDigest(root);
    expect(withNew).not.toBe(before);
    rmSync(join(root, 'src/validate/new.ts'));
    expect(harnessDigest(root)).not.toBe(withNew);
    rmSync(join(root, 'dist'), { recursive: true });
    expect(harnessDigest(root)).not.toBe(before);
  });

  it('ignores compiled leftovers of removed sources and source maps, in a clone', () => {
    const root = fakeRoot();
    const before = harnessDigest(root);
    writeFileSync(join(root, 'dist/src/validate/removed.js'), 'export const gone = 1;');
    writeFileSync(join(root, 'dist/src/validate/judge.js.map'), '{}');
    expect(harnessDigest(root)).toBe(before);
    // The compiled twin of a live source counts: dist/ older than src/ is another harness.
    edit(join(root, 'dist/src/validate/rows.js'), (text) => `${text}\n// stale`);
    expect(harnessDigest(root)).not.toBe(before);
  });

  it('hashes the compiled code a proof runs in an installed package (no src/)', () => {
    const root = fakeRoot();
    rmSync(join(root, 'src'), { recursive: true });
    const before = harnessDigest(root);
    edit(join(root, 'dist/src/scoring/score.js'), (text) => `${text}\n// edited`);
    expect(harnessDigest(root)).not.toBe(before);
  });

  it("leaves a task folder to its own proof's key", () => {
    const root = fakeRoot();
    const before = harnessDigest(root);
    edit(join(root, 'tasks/doc_trap_v1/flags.ts'), (text) => `${text}\n// edited`);
    mkdirSync(join(root, 'dist/tasks/doc_trap_v1'), { recursive: true });
    writeFileSync(join(root, 'dist/tasks/doc_trap_v1/flags.js'), 'export {};');
    expect(harnessDigest(root)).toBe(before);
  });

  it('digests this package', () => {
    expect(harnessDigest()).toMatch(/^\d+\.\d+\.\d+[^:]*:[0-9a-f]{64}$/);
  });
});
