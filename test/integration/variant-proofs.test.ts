/**
 * validate on a variant task folder, through the real sandbox: each instance is drawn twice to show
 * its generator deterministic (one that is not is a failed row, never proven), and an instance whose
 * proof is cached is drawn once (its key holds the content drawn twice when it was proven).
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTaskFolder } from '../../src/catalogue/native/load.js';
import { DEFAULT_LIMITS } from '../../src/run/settings.js';
import { createDockerSandbox, ensureImage } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import type { WorkspaceTask } from '../../src/tasks/types.js';
import { harnessDigest } from '../../src/validate/harness-digest.js';
import { openProofCache } from '../../src/validate/proof-cache.js';
import { validateTasks } from '../../src/validate/validate-tasks.js';
import { MINIMAL_FILES, MINIMAL_TOML, removeTaskFolders, taskFolder } from '../tasks/folder/task-folder.js';

/** The minimal task, its word drawn per instance. */
const TOML = `${MINIMAL_TOML.replace('contains = ["done"]', 'contains = ["{{instance.word}}"]').replace(
  'content = "done\\n"',
  'content = "{{instance.word}}\\n"',
)}\n[variants]\ngenerator = "variants/generate.py"\n`;

/** Writes the instance of SEED; `noise` adds what no SEED decides (a generator that is not deterministic). */
function generator(noise: boolean): string {
  return `#!/usr/bin/env python3
import json, os, sys
seed, out = sys.argv[1], sys.argv[2]
word = "w" + seed[:8]${noise ? ' + open("/proc/sys/kernel/random/uuid").read()[:8]' : ''}
for d in ("files", "solution"):
    os.makedirs(os.path.join(out, d))
open(os.path.join(out, "files/notes.txt"), "w").write("one\\ntwo\\nthree\\nfour\\n")
open(os.path.join(out, "solution/out.txt"), "w").write(word + "\\n")
open(os.path.join(out, "instance.json"), "w").write(json.dumps({"word": word}))
`;
}

function variantTask(noise: boolean): WorkspaceTask {
  const dir = taskFolder({
    ...MINIMAL_FILES,
    'task.toml': TOML,
    'instance.json': '{"word": "done"}',
    'variants/generate.py': generator(noise),
  });
  chmodSync(join(dir, 'variants/generate.py'), 0o755);
  return loadTaskFolder(dir);
}

let image: string;
let imageId: string;
const temps: string[] = [];
const earlierCache = process.env.AGENT_BENCH_CACHE;
/** Generator runs seen through the sandboxes validate opened (`generate SEED OUTDIR` execs). */
let generatorRuns = 0;

async function openSandbox(task: WorkspaceTask): Promise<Sandbox> {
  const sandbox = await createDockerSandbox({
    image,
    limits: DEFAULT_LIMITS,
    labels: { run: 'vitest', task: task.id },
  });
  const exec = sandbox.exec.bind(sandbox);
  sandbox.exec = (argv, options) => {
    if (argv.includes('generate')) generatorRuns++;
    return exec(argv, options);
  };
  return sandbox;
}

beforeAll(async () => {
  const built = await ensureImage();
  image = built.tag;
  imageId = built.id;
  temps.push(mkdtempSync(join(tmpdir(), 'agent-bench-variant-proofs-')));
  // Instances are kept in a cache of the test's own.
  temps.push(mkdtempSync(join(tmpdir(), 'agent-bench-variant-proofs-cache-')));
  process.env.AGENT_BENCH_CACHE = temps[1];
});
afterAll(() => {
  if (earlierCache === undefined) delete process.env.AGENT_BENCH_CACHE;
  else process.env.AGENT_BENCH_CACHE = earlierCache;
  removeTaskFolders();
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

describe('validate on a variant task folder', () => {
  it('proves each instance once, drawing it twice; a cached one is drawn once', async () => {
    const cache = openProofCache({ dir: temps[0] as string, onNote: () => {} });
    const run = () =>
      validateTasks([variantTask(false)], {
        openSandbox,
        variants: 2,
        parallel: 2,
        proofs: { cache, inputs: { image: imageId, harness: harnessDigest() } },
      });
    generatorRuns = 0;
    const first = await run();
    expect(first.map((r) => [r.run.replace(/^instance \S+: /, ''), r.kind])).toEqual([
      ['oracle', 'passed'],
      ['do-nothing', 'passed'],
      ['no_read', 'passed'],
      ['oracle', 'passed'],
      ['do-nothing', 'passed'],
      ['no_read', 'passed'],
    ]);
    expect(new Set(first.map((r) => /^instance (\S+): /.exec(r.run)?.[1])).size).toBe(2);
    expect(generatorRuns).toBe(4);
    generatorRuns = 0;
    const again = await run();
    expect(again.map((r) => r.kind)).toEqual(first.map(() => 'cached'));
    expect(generatorRuns).toBe(2);
  }, 300_000);

  it('never proves an instance of a generator that is not deterministic', async () => {
    const rows = await validateTasks([variantTask(true)], { openSandbox, variants: 1 });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: 'failed',
      run: expect.stringMatching(/^instance \S+: generator$/),
    });
    expect(rows[0]?.detail).toMatch(/not deterministic/);
  }, 300_000);
});
