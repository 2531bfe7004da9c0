/** A merge copies each trial's exported artifacts from its shard's folder: real files and folders only, never through a link. */
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyArtifacts } from '../../src/results/merge-artifacts.js';
import { PASS, result } from '../helpers/result-builder.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'merge-artifacts-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A result whose trial `index` exported into `artifacts_dir`. */
function withArtifacts(index: number, artifactsDir: string) {
  const r = result({ task: 'page_v1', model: 'm', trials: [PASS] });
  const [trial] = r.trials;
  if (trial === undefined) throw new Error('no trial');
  return { ...r, trials: [{ ...trial, index, artifacts_dir: artifactsDir }] };
}

describe('copyArtifacts', () => {
  it("copies the trial's folder, files and subfolders, and replaces what an earlier merge left", async () => {
    const from = join(root, 'shard-2');
    const into = join(root, 'merged');
    const trialDir = join(from, 'artifacts/page_v1/m/trial-3');
    await mkdir(join(trialDir, 'img'), { recursive: true });
    await writeFile(join(trialDir, 'index.html'), '<h1>hi</h1>');
    await writeFile(join(trialDir, 'img/a.png'), 'png');
    await mkdir(join(into, 'artifacts/page_v1/m/trial-3'), { recursive: true });
    await writeFile(join(into, 'artifacts/page_v1/m/trial-3/stale.txt'), 'old');

    const skipped = await copyArtifacts(withArtifacts(3, 'artifacts/page_v1/m/trial-3'), from, into);
    expect(skipped).toEqual([]);
    const copied = join(into, 'artifacts/page_v1/m/trial-3');
    expect((await readdir(copied)).sort()).toEqual(['img', 'index.html']);
    expect(await readFile(join(copied, 'img/a.png'), 'utf8')).toBe('png');
  });

  it('copies no link, and follows none on the way', async () => {
    const from = join(root, 'shard-1');
    const into = join(root, 'merged');
    const outside = join(root, 'outside');
    await mkdir(outside);
    await writeFile(join(outside, 'secret'), 'secret');
    const trialDir = join(from, 'artifacts/page_v1/m/trial-0');
    await mkdir(trialDir, { recursive: true });
    await writeFile(join(trialDir, 'ok.txt'), 'ok');
    await symlink(join(outside, 'secret'), join(trialDir, 'link'));
    // A trial folder that is a link out of the shard's folder.
    await mkdir(join(from, 'artifacts/page_v1/m'), { recursive: true });
    await symlink(outside, join(from, 'artifacts/page_v1/m/trial-1'));
    // The merge makes the folder it merges into before it copies anything.
    await mkdir(into);

    const first = await copyArtifacts(withArtifacts(0, 'artifacts/page_v1/m/trial-0'), from, into);
    expect(first).toEqual([`${join(trialDir, 'link')}: not a regular file or folder, not copied`]);
    expect(await readdir(join(into, 'artifacts/page_v1/m/trial-0'))).toEqual(['ok.txt']);

    const second = await copyArtifacts(withArtifacts(1, 'artifacts/page_v1/m/trial-1'), from, into);
    expect(second).toEqual([
      `artifacts of page_v1 trial 2: artifacts/page_v1/m/trial-1 is not a folder below ${from}`,
    ]);
    const third = await copyArtifacts(withArtifacts(2, '../outside'), from, into);
    expect(third).toEqual([
      "artifacts of page_v1 trial 3: ../outside is not this trial's folder (artifacts/page_v1/m/trial-2), not copied",
    ]);
    expect(await readdir(join(into, 'artifacts/page_v1/m'))).toEqual(['trial-0']);
  });

  it("copies only the trial's own folder: a shard file naming another cell's folder or the trash replaces nothing", async () => {
    const from = join(root, 'shard-1');
    const into = join(root, 'merged');
    for (const dir of ['.trash', 'artifacts/other_v1/m2/trial-0']) {
      await mkdir(join(from, dir), { recursive: true });
      await writeFile(join(from, dir, 'x.txt'), 'from the shard');
      await mkdir(join(into, dir), { recursive: true });
      await writeFile(join(into, dir, 'kept.txt'), 'mine');
    }
    for (const dir of ['.trash', 'artifacts/other_v1/m2/trial-0']) {
      const skipped = await copyArtifacts(withArtifacts(0, dir), from, into);
      expect(skipped).toEqual([
        `artifacts of page_v1 trial 1: ${dir} is not this trial's folder (artifacts/page_v1/m/trial-0), not copied`,
      ]);
      expect(await readdir(join(into, dir))).toEqual(['kept.txt']);
    }
  });

  it('does not write through a link in the merged folder', async () => {
    const from = join(root, 'shard-1');
    const into = join(root, 'merged');
    await mkdir(join(from, 'artifacts/page_v1/m/trial-0'), { recursive: true });
    await writeFile(join(from, 'artifacts/page_v1/m/trial-0/ok.txt'), 'ok');
    await mkdir(join(into, 'artifacts'), { recursive: true });
    await mkdir(join(root, 'elsewhere'));
    await symlink(join(root, 'elsewhere'), join(into, 'artifacts/page_v1'));
    const skipped = await copyArtifacts(withArtifacts(0, 'artifacts/page_v1/m/trial-0'), from, into);
    expect(skipped).toEqual([`artifacts of page_v1 trial 1: a link or file is in the way in ${into}`]);
    expect(await readdir(join(root, 'elsewhere'))).toEqual([]);
  });
});
