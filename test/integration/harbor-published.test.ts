/**
 * Harbor tasks as published, through the real engine, offline (--base-image): the current
 * task.toml's `schema_version`, `[environment] workdir` (over the Dockerfile's WORKDIR, for the
 * oracle, the verifier and a model's sandbox) and `[environment.env]` (for solve.sh and test.sh),
 * and one folder holding a task that cannot be loaded and one whose image does not build beside a
 * good one: validate proves the good one and fails each bad one in a row of its own (a Dockerfile
 * that does not build is the task's problem, so validate exits 1); a run records
 * an error result for each bad one (never the model's failure) and runs the good one.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readResultFiles } from '../../src/results/store.js';
import { ensureImage } from '../../src/sandbox/index.js';
import { validateHarborFolders } from '../helpers/harbor-cli.js';
import { type ScriptedServer, startScriptedServer } from '../helpers/scripted-server.js';

const BIN = join(import.meta.dirname, '../../bin/agent-bench');
const SOUND = join(import.meta.dirname, '../tasks/fixtures/harbor/sound');
const exec = promisify(execFile);

let base = '';
let scratch = '';
let folder = '';
let server: ScriptedServer;

/** A copy of the sound fixture named `name` in the folder, with some files replaced. */
function task(name: string, files: Record<string, string>): void {
  const dir = join(folder, name);
  cpSync(SOUND, dir, { recursive: true });
  for (const [rel, text] of Object.entries(files)) writeFileSync(join(dir, rel), text, { mode: 0o755 });
}

beforeAll(async () => {
  base = (await ensureImage()).tag;
  scratch = mkdtempSync(join(tmpdir(), 'harbor-pub-'));
  folder = join(scratch, 'tasks');
  mkdirSync(folder);
  // The Dockerfile's last WORKDIR is /app; task.toml says /srv, where the image keeps notes.txt.
  task('declared', {
    'task.toml':
      'schema_version = "1.1"\n\n[verifier]\ntimeout_sec = 60.0\n\n[environment]\nallow_internet = false\nmemory_mb = 1024\nworkdir = "/srv"\n\n[environment.env]\nGREETING = "hello, harbor"\n',
    'instruction.md': 'Write the greeting of notes.txt into greeting.txt, beside it.\n',
    'solution/solve.sh': '#!/bin/bash\n[ "$PWD" = /srv ] && echo "$GREETING" > greeting.txt\n',
    'tests/test.sh':
      '#!/bin/bash\nif [ -f notes.txt ] && [ -f /srv/notes.txt ] && [ "$(cat /srv/greeting.txt 2>/dev/null)" = "$GREETING" ]; then echo 1; else echo 0; fi > /logs/verifier/reward.txt\n',
  });
  task('unbuildable', { 'environment/Dockerfile': 'FROM python:3.12-slim\nRUN exit 7\n' });
  task('unreadable', { 'task.toml': 'version = "1.0"\n[agent]\ntimeout_sec = "long"\n' });
  server = await startScriptedServer({
    scripts: {
      writer: [
        {
          calls: [
            { name: 'write_file', arguments: { path: '/srv/greeting.txt', content: 'hello, harbor\n' } },
          ],
        },
        { text: 'done' },
      ],
    },
  });
}, 600_000);

afterAll(async () => {
  await server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('published Harbor tasks, one folder with bad ones', () => {
  it('validate proves the good one in its declared workdir with its variables, and fails each bad one in one row', async () => {
    // A Dockerfile that does not build is the task's problem: a failed row, and validate exits 1.
    const { rows, exitCode } = await validateHarborFolders([folder], {
      baseImage: base,
      taskNames: ['declared', 'unbuildable', 'unreadable'],
    });
    expect(exitCode).toBe(1);
    expect(rows).toEqual([
      expect.stringMatching(/^declared +oracle +ok +passes$/),
      expect.stringMatching(/^declared +do-nothing +ok +scores 0$/),
      expect.stringMatching(
        /^unbuildable +image +FAIL +unbuildable: environment\/Dockerfile failed to build at Step \d+\/\d+ \(RUN exit 7\)/,
      ),
      expect.stringMatching(
        /^unreadable +load +FAIL +.*task\.toml: agent\.timeout_sec: expected number, received string$/,
      ),
    ]);
  }, 600_000);

  it('a run gives the bad ones an error result each and a model passes the good one, writing in the declared workdir', async () => {
    const resultsDir = mkdtempSync(join(scratch, 'results-'));
    const args = [BIN, 'run', '--tasks-dir', folder, '--base-image', base, '--results-dir', resultsDir];
    const e = await exec(process.execPath, [...args, '--model', 'writer', '--base-url', server.baseUrl]).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code?: number; stderr?: string }) => ({ code: err.code ?? -1, stderr: err.stderr ?? '' }),
    );
    // Trials not measured: exit 3, never a model's failure.
    expect(e.code, e.stderr).toBe(3);
    const { results } = await readResultFiles(resultsDir);
    const byTask = new Map(results.map(({ result }) => [result.task_id, result]));
    const declared = byTask.get('declared');
    expect(declared?.trials[0]?.status, declared?.trials[0]?.failure_reason ?? '').toBe('passed');
    for (const bad of ['unbuildable', 'unreadable']) {
      const r = byTask.get(bad);
      expect(r?.trials.map((t) => [t.status, t.error?.kind])).toEqual([['error', 'harness']]);
    }
    expect(byTask.get('unreadable')?.trials[0]?.failure_reason).toMatch(
      /^harness_error: Harbor task unreadable cannot run: .*agent\.timeout_sec/,
    );
  }, 600_000);
});
