/**
 * Variants beyond debug_python_v1: debug_js_v1 (a node generator) and skills, whose manifest may
 * name a generator too: the bundled report skill (its ticket export drawn per trial) and a user's
 * skill folder given with --skill-dir. Each trial's instance is mounted as a folder of its own, so a
 * check that follows the instance passes only when the trial saw that instance's files.
 */
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectWithSkills } from '../../src/cli/select-tasks.js';
import type { ResultFile } from '../../src/results/result-file.js';
import { ensureImage } from '../../src/sandbox/index.js';
import type { Task } from '../../src/tasks/types.js';
import { instanceSource } from '../../src/tasks/variants/instances.js';
import { builtIn, draftSecondTrial, oracleRun as oracle } from './oracle-run.js';

const TASKS = ['debug_js_v1', 'skill_run_v1_report'];
const dirs: string[] = [];
const earlierCache = process.env.AGENT_BENCH_CACHE;

beforeAll(async () => {
  // A cache of its own: the runs draw every instance through the generator.
  const cache = await mkdtemp(join(tmpdir(), 'agent-bench-variants-js-cache-'));
  dirs.push(cache);
  process.env.AGENT_BENCH_CACHE = cache;
  await ensureImage();
});

afterAll(async () => {
  if (earlierCache === undefined) delete process.env.AGENT_BENCH_CACHE;
  else process.env.AGENT_BENCH_CACHE = earlierCache;
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

/** The results folder of each oracle run, by its result (for task from-trial). */
const runDirs = new Map<ResultFile, string>();

async function oracleRun(task: Task, k = 3): Promise<ResultFile> {
  const resultsDir = await mkdtemp(join(tmpdir(), 'agent-bench-variants-js-'));
  dirs.push(resultsDir);
  const result = await oracle(task, { resultsDir, k });
  runDirs.set(result, resultsDir);
  return result;
}

/**
 * A user's skill folder: count the rows of data/rows.txt into output/count.txt. Its generator
 * draws how many rows (from the SEED's checksum), so the check on the count follows the instance.
 */
async function rowsSkill(generator: string): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'agent-bench-variant-skill-'));
  dirs.push(root);
  const dir = join(root, 'count-rows');
  const files: Record<string, string> = {
    'SKILL.md': 'Count the rows: `wc -l < /workspace/skill/data/rows.txt > /workspace/output/count.txt`.\n',
    'data/rows.txt': 'a\nb\n',
    '.bench/instance.json': '{ "rows": 2 }\n',
    '.bench/generate.sh': generator,
    'bench_manifest.json': JSON.stringify({
      id: 'count_rows',
      goal: 'Count the rows of the skill data into output/count.txt.',
      required_commands: [{ id: 'count', pattern: 'wc\\s+-l', exit_code: 0 }],
      expected_artifacts: ['output/count.txt'],
      artifact_checks: [{ file: 'output/count.txt', regex: '^{{instance.rows}}\\s*$' }],
      allowed_writes: ['output/*'],
      max_turns: 4,
      reference_solution: [
        {
          name: 'execute_command',
          arguments: { command: 'mkdir -p output && wc -l < skill/data/rows.txt > output/count.txt' },
        },
        { text: '{{instance.rows}} rows.', calls: [] },
      ],
      variants: { generator: '.bench/generate.sh', count_hint: 30 },
    }),
  };
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, rel)), { recursive: true });
    await writeFile(join(dir, rel), text);
  }
  await chmod(join(dir, '.bench/generate.sh'), 0o755);
  return dir;
}

const COUNTING_GENERATOR = `#!/bin/sh
set -eu
n=$(( $(printf '%s' "$1" | cksum | cut -d' ' -f1) % 30 + 3 ))
mkdir -p "$2/data" "$2/.bench"
seq "$n" > "$2/data/rows.txt"
printf '{ "rows": %s }\\n' "$n" > "$2/.bench/instance.json"
`;

const skillTasks = (dir: string) => selectWithSkills({ tasks: 'all', skillDirs: [dir], skillAb: false });

describe.sequential('debug_js_v1 and skills with variants', () => {
  const firstRuns = new Map<string, ResultFile>();

  it.each(TASKS)('%s: --model oracle --k 3 runs three different instances and passes all', async (id) => {
    const result = await oracleRun(builtIn(id));
    firstRuns.set(id, result);
    expect(
      result.trials.map((t) => t.status),
      result.trials.map((t) => t.failure_reason).join('\n'),
    ).toEqual(['passed', 'passed', 'passed']);
    expect(new Set(result.trials.map((t) => t.variant)).size).toBe(3);
  });

  it('task from-trial on a skill trial drafts the instance it ran: its goal, not the folder’s', async () => {
    const result = firstRuns.get('skill_run_v1_report');
    const resultsDir = result === undefined ? undefined : runDirs.get(result);
    if (result === undefined || resultsDir === undefined) throw new Error('no first run');
    const draft = join(await mkdtemp(join(tmpdir(), 'agent-bench-draft-')), 'draft');
    dirs.push(dirname(draft));
    const variant = await draftSecondTrial(result, resultsDir, draft);
    const base = builtIn('skill_run_v1_report');
    if (base.kind !== 'skill') throw new Error('no skill task');
    const instance = await instanceSource().instance(base, variant, () => {
      throw new Error('the instance should be cached by the run');
    });
    expect(instance.prompt).not.toBe(base.prompt);
    expect(await readFile(join(draft, 'instruction.md'), 'utf8')).toContain(instance.prompt);
  });

  it('a skill folder given with --skill-dir draws a fresh instance per trial, each mounted for its trial', async () => {
    const dir = await rowsSkill(COUNTING_GENERATOR);
    const [task] = skillTasks(dir);
    if (task === undefined) throw new Error('no skill task');
    const result = await oracleRun(task);
    // The count check passes only on the rows of the trial's own instance.
    expect(
      result.trials.map((t) => t.status),
      result.trials.map((t) => t.failure_reason).join('\n'),
    ).toEqual(['passed', 'passed', 'passed']);
    expect(new Set(result.trials.map((t) => t.variant)).size).toBe(3);
  });

  it("a broken skill generator is the harness's error, in one line naming the skill, the generator and the seed", async () => {
    const dir = await rowsSkill('#!/bin/sh\necho "no rows today" >&2\nexit 3\n');
    const [task] = skillTasks(dir);
    if (task === undefined) throw new Error('no skill task');
    const result = await oracleRun(task, 1);
    const [trial] = result.trials;
    expect(trial?.status).toBe('error');
    expect(trial?.error?.kind).toBe('harness');
    expect(trial?.failure_reason).toMatch(
      new RegExp(
        `^harness_error: count_rows: generator \\.bench/generate\\.sh \\(seed ${trial?.variant}\\): exited 3: no rows today$`,
      ),
    );
  });
});
