/**
 * The recipes README points at (examples/): a CI matrix and a Kubernetes Indexed Job. Their command
 * lines are expanded as the engine expands them (GitHub's `${{ matrix.shard }}`, the pod's shell with
 * JOB_COMPLETION_INDEX set) and parsed by agent-bench's own parser; together the shards must be one
 * run, split exactly once, and the merge step must name every shard's folder.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSettings, shardPlan } from '../../src/cli/run-options.js';
import { sortedIds } from '../../src/results/shard-deal.js';
import { SAY_DONE } from '../helpers/memory-run.js';
import { parsed, type Reached, settingsOptions } from './shard-cli.js';

const ROOT = join(import.meta.dirname, '../..');
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');
const TASKS = ['t1', 't2', 't3', 't4'].map((id) => ({ ...SAY_DONE, id }));

/** A command line as a POSIX shell splits and expands it, with `env` set. */
function shellWords(line: string, env: Record<string, string> = {}): string[] {
  const out = execFileSync('sh', ['-c', `printf '%s\\0' ${line}`], {
    env: { PATH: process.env.PATH, ...env },
  });
  return out.toString('utf8').split('\0').slice(0, -1);
}

/** `npx agent-bench ...` / `agent-bench ...` -> what agent-bench's parser makes of it. */
async function agentBench(words: string[]): Promise<Reached> {
  const at = words.indexOf('agent-bench');
  expect(at, words.join(' ')).toBeGreaterThanOrEqual(0);
  return parsed(words.slice(at + 1));
}

/** The shards' command lines are one run: the same but for --shard, each of 1..N once, every trial once. */
function expectOneRun(runs: Reached[], count: number): void {
  const plans = runs.map((r) => {
    const o = settingsOptions(r);
    return shardPlan(o, TASKS, runSettings(o));
  });
  expect(plans.map((p) => p?.spec)).toEqual(
    Array.from({ length: count }, (_, i) => ({ index: i + 1, count })),
  );
  expect(new Set(plans.map((p) => p?.group)).size).toBe(1);
  const without = runs.map((r) => JSON.stringify({ ...r.opts, shard: null, resultsDir: null }));
  expect(new Set(without).size).toBe(1);
  const owned = plans.flatMap((p) =>
    sortedIds(TASKS.map((t) => t.id)).flatMap((id) => (p?.record(id)?.trials ?? []).map((t) => `${id}#${t}`)),
  );
  expect(owned.sort()).toEqual(TASKS.flatMap((t) => [0, 1, 2, 3, 4].map((i) => `${t.id}#${i}`)).sort());
}

/** The `- >-` folded block scalars of a YAML text, folded (lines joined with spaces). */
function foldedBlocks(yaml: string): string[] {
  const lines = yaml.split('\n');
  const blocks: string[] = [];
  lines.forEach((line, i) => {
    const m = /^(\s*)- >-\s*$/.exec(line);
    if (m === null) return;
    const indent = (m[1] ?? '').length;
    const body: string[] = [];
    for (const next of lines.slice(i + 1)) {
      if (next.trim() === '' || next.length - next.trimStart().length <= indent) break;
      body.push(next.trim());
    }
    blocks.push(body.join(' '));
  });
  return blocks;
}

describe('the CI matrix recipe (examples/ci-matrix.yml)', () => {
  const yaml = read('examples/ci-matrix.yml');
  const shards = JSON.parse(/^\s+shard: (\[[\d, ]+\])$/m.exec(yaml)?.[1] ?? '[]') as number[];
  const runLines = [...yaml.matchAll(/^\s+- run: (.*agent-bench .*)$/gm)].map((m) => m[1] ?? '');

  it('runs one shard per matrix job, all of one run', async () => {
    expect(shards).toEqual([1, 2, 3]);
    const [bench] = runLines;
    const runs = await Promise.all(
      shards.map((s) => agentBench(shellWords((bench ?? '').replaceAll('${{ matrix.shard }}', String(s))))),
    );
    expect(runs.every((r) => r.command === 'run')).toBe(true);
    expectOneRun(runs, shards.length);
    // Each job uploads its folder under its own name: the merge step downloads them side by side.
    expect(yaml).toContain('name: results-shard-${{ matrix.shard }}');
  });

  it('merges every shard the matrix ran', async () => {
    const merge = await agentBench(shellWords(runLines.find((l) => l.includes('results merge')) ?? ''));
    expect(merge).toMatchObject({ command: 'merge', opts: { into: 'results' } });
    expect(merge.args).toEqual(shards.map((s) => `shards/results-shard-${s}`));
    expect(yaml).toMatch(/pattern: results-shard-\*\n\s+path: shards\n/);
  });
});

describe('the Kubernetes Indexed Job recipe (examples/k8s-indexed-job.yaml)', () => {
  const yaml = read('examples/k8s-indexed-job.yaml');
  const [job, mergeJob] = yaml.split(/^---$/m);
  const completions = Number(/^\s+completions: (\d+)$/m.exec(job ?? '')?.[1]);

  it('is an Indexed Job whose JOB_COMPLETION_INDEX picks the shard, all of one run', async () => {
    expect(job).toMatch(/^\s+completionMode: Indexed$/m);
    expect(Number(/^\s+parallelism: (\d+)$/m.exec(job ?? '')?.[1])).toBe(completions);
    const [bench] = foldedBlocks(job ?? '');
    const runs = await Promise.all(
      Array.from({ length: completions }, (_, i) =>
        agentBench(shellWords(bench ?? '', { JOB_COMPLETION_INDEX: String(i) })),
      ),
    );
    expectOneRun(runs, completions);
    expect(runs.map((r) => r.opts.resultsDir)).toEqual([
      '/results/shard-1',
      '/results/shard-2',
      '/results/shard-3',
    ]);
    expect(runs.every((r) => r.opts.resume === true && r.opts.dockerHost === 'tcp://127.0.0.1:2375')).toBe(
      true,
    );
  });

  it('merges the folder of every index', async () => {
    const [merge] = foldedBlocks(mergeJob ?? '');
    const reached = await agentBench(shellWords(merge ?? ''));
    expect(reached).toMatchObject({ command: 'merge', opts: { into: '/results/merged' } });
    expect(reached.args).toEqual(Array.from({ length: completions }, (_, i) => `/results/shard-${i + 1}`));
  });
});

describe('docs/shards.md: Several machines', () => {
  const section = read('docs/shards.md');

  it('points at both recipes, and every agent-bench command it shows parses', async () => {
    expect(section).toContain('examples/ci-matrix.yml');
    expect(section).toContain('examples/k8s-indexed-job.yaml');
    const commands = [...section.matchAll(/```sh\n([\s\S]*?)```/g)]
      .flatMap((m) => (m[1] ?? '').split('\n'))
      .map((l) => l.replace(/\s+#.*$/, '').trim())
      .filter((l) => l.startsWith('agent-bench '));
    expect(commands.length).toBeGreaterThanOrEqual(4);
    for (const line of commands) await agentBench(shellWords(line.replaceAll('$i', '1')));
  });
});
