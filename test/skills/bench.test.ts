/**
 * Skill tasks through the real bench (runBench, the scripted OpenAI-compatible server, the Docker
 * sandbox): artifacts exported with the hashes the record gives, the skill digest recorded, step
 * names called as tools counted as hallucinations, and --skill-ab producing both variants.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtIn, getTask } from '../../src/catalogue/built-in.js';
import { selectWithSkills } from '../../src/cli/select-tasks.js';
import type { ResultFile } from '../../src/results/result-file.js';
import { compareAb, formatAb } from '../../src/skills/ab.js';
import type { Task } from '../../src/tasks/types.js';
import { sha256 } from '../../src/util/hash.js';
import { turnsToReplies } from '../helpers/scripted-server.js';
import { IMAGE_TIMEOUT_MS } from '../sandbox/fixture.js';
import { benchTasks } from './bench-tasks.js';
import { LEGACY_SKILL } from './skill-folder.js';

function task(id: string): Task {
  const t = getTask(id);
  if (t === undefined) throw new Error(`no task ${id}`);
  return t;
}

describe.sequential('skill tasks in a real run', () => {
  it(
    'exports the artifacts with the hashes the record lists, and records the skill digest',
    async () => {
      const report = task('skill_run_v1_report');
      const run = await benchTasks([report], turnsToReplies(report.referenceSolution));
      const [result] = run.results as [ResultFile];
      const [trial] = result.trials;
      expect(trial?.passed, trial?.failure_reason ?? '').toBe(true);
      // cmd:render is reached only when the stub's log pairs with the parsed run: the stub recorded it.
      expect(trial?.flags['cmd:render']).toMatchObject({ reached: true, turn: 3 });
      expect(result.skill_digest).toBe(builtIn().skills.find((s) => s.spec.id === report.id)?.digest);
      expect(trial?.artifacts.map((a) => a.path)).toEqual(['output/report.pdf', 'output/summary.json']);
      for (const a of trial?.artifacts ?? []) {
        const bytes = await readFile(join(run.resultsDir, trial?.artifacts_dir ?? '', a.path));
        expect({ path: a.path, sha256: sha256(bytes), size: bytes.length }).toEqual({
          path: a.path,
          sha256: a.sha256,
          size: a.size,
        });
      }
      const pdf = await readFile(
        join(run.resultsDir, trial?.artifacts_dir ?? '', 'output/report.pdf'),
        'utf8',
      );
      expect(pdf).toMatch(/^%PDF-1\.4\n% agent-bench stub output/);
    },
    IMAGE_TIMEOUT_MS,
  );

  it(
    'a base URL with credentials reaches the server with them; no file or line of the run holds them, and links the agent plants are not exported',
    async () => {
      const [user, password, key] = ['bench-user', 'pw-SECRET-91d2', 'KEY-SECRET-44ab'];
      const report = task('skill_run_v1_report');
      const plant = {
        calls: [
          {
            name: 'execute_command',
            arguments: {
              command:
                'mkdir -p output && ln -s /etc/passwd output/passwd && ln -s / output/root && ln -s /etc output/etc && ln /etc/hostname output/hard 2>/dev/null; true',
            },
          },
        ],
      };
      const run = await benchTasks(
        [report],
        turnsToReplies([plant, ...report.referenceSolution]),
        {},
        {
          baseUrl: (url) => `${url.replace('http://', `http://${user}:${password}@`)}?api_key=${key}`,
        },
      );
      const basic = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
      expect(run.requests.length).toBeGreaterThan(0);
      for (const r of run.requests) expect(r.authorization).toBe(basic);
      const files = (await readdir(run.resultsDir, { recursive: true, withFileTypes: true })).filter(
        (e) => !e.isDirectory(),
      );
      for (const f of files) {
        const path = join(f.parentPath, f.name);
        expect(f.isSymbolicLink(), path).toBe(false);
        const text = await readFile(path, 'utf8');
        for (const secret of [password, key, basic]) expect(text.includes(secret), path).toBe(false);
        expect(text, path).not.toMatch(/^root:x:0:0:/m);
      }
      for (const secret of [password, key]) expect(run.output).not.toContain(secret);
      const [trial] = (run.results as [ResultFile])[0].trials;
      const exported = trial?.artifacts.map((a) => a.path) ?? [];
      for (const link of ['output/passwd', 'output/root', 'output/etc']) expect(exported).not.toContain(link);
      expect((run.results as [ResultFile])[0].environment?.base_url).toMatch(
        /^http:\/\/\*\*\*@127\.0\.0\.1:\d+\/v1\?api_key=\*\*\*$/,
      );
    },
    IMAGE_TIMEOUT_MS,
  );

  it('counts a documented step name called as a tool', async () => {
    const mirage = task('tool_mirage_v1');
    const script = [
      { calls: [{ name: 'csv_summarize', arguments: { input: 'skill/data/sales.csv' } }] },
      ...mirage.referenceSolution,
    ];
    const run = await benchTasks([mirage], turnsToReplies(script));
    const [result] = run.results as [ResultFile];
    const [trial] = result.trials;
    expect(trial?.flags.no_tool_hallucination).toMatchObject({
      reached: false,
      detail: expect.stringMatching(/csv_summarize/),
    });
    expect(trial?.invalid_tool_call_count).toBe(1);
    expect(result.invalid_tool_call_count).toBe(1);
    expect(trial?.flags.step_completion?.reached).toBe(true);
    expect(trial?.passed).toBe(false);
  });

  it('runs --skill-ab as two variants, both with the digest, and compares them', async () => {
    const tasks = selectWithSkills({ tasks: 'all', skillDirs: [LEGACY_SKILL], skillAb: true });
    expect(tasks.map((t) => t.id)).toEqual(['skill_run_v1_report', 'skill_run_v1_report__noskill']);
    // Without the skill nothing is mounted.
    expect(tasks[1]?.kind === 'skill' ? tasks[1].environment.mounts : null).toEqual([]);
    expect(tasks[1]?.prompt).toMatch(/^Your goal: Generate the daily report\.\n/);
    expect(tasks[1]?.prompt).not.toMatch(/skill/);
    const withSkill = turnsToReplies([
      { calls: [{ name: 'read_file', arguments: { path: 'skill/SKILL.md' } }] },
      {
        calls: [
          {
            name: 'execute_command',
            arguments: { command: 'sh /workspace/skill/scripts/make_report.sh --title daily' },
          },
        ],
      },
      { text: 'Report generated.', calls: [] },
    ]);
    const without = turnsToReplies([
      {
        calls: [{ name: 'write_file', arguments: { path: 'output/report.txt', content: 'daily report\n' } }],
      },
      { text: 'Report written.', calls: [] },
    ]);
    const run = await benchTasks(
      tasks,
      (body) => {
        const prompt = JSON.stringify(body.messages.find((m) => m.role === 'user')?.content ?? '');
        const replies = prompt.includes('A skill is installed') ? withSkill : without;
        return replies[body.messages.filter((m) => m.role === 'assistant').length] ?? { text: 'done' };
      },
      { k: 2 },
    );
    const [on, off] = run.results as [ResultFile, ResultFile];
    expect([on.task_id, off.task_id]).toEqual(['skill_run_v1_report', 'skill_run_v1_report__noskill']);
    expect(on.skill_digest).toMatch(/^sha256:/);
    expect(off.skill_digest).toBe(on.skill_digest);
    expect([on.pass_hat_k, off.pass_hat_k]).toEqual([1, 1]);
    expect(Object.keys(off.skills)).toEqual([
      'artifact:output/report.txt',
      'no_tool_hallucination',
      'step_completion',
    ]);
    const [row] = compareAb(run.results);
    expect(row).toMatchObject({
      taskId: 'skill_run_v1_report',
      goalFlags: ['artifact:output/report.txt'],
      withSkill: { trials: 2, goalPassHatK: 1, avgTurns: 3 },
      withoutSkill: { trials: 2, goalPassHatK: 1, avgTurns: 2 },
      mismatch: null,
    });
    expect(formatAb(compareAb(run.results))).toMatch(/turns\s+3\.0\s+2\.0\s+\+1\.0/);
  });
});
