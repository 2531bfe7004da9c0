/**
 * The key a task's validation proof is cached under: a hash of everything that could change one of
 * its verdicts. The task's version (its files, prompt, limits, flags, check digest, skill and
 * dialogue digests) does not hold the scripts validate runs (oracle, lures, alternates, cheats),
 * and must not, since results compare by it; so they are hashed here, beside the version. Then the
 * task folder and its mounted folders as content (anything its loader reads, even a field no
 * hash knows of yet), the image its sandbox runs (none for a dialogue task, which runs in the
 * harness), and the harness itself (harness-digest.ts). A key that changes too often re-proves a task; one that changes too seldom
 * trusts a stale proof, so when in doubt an input is in.
 */
import { inContainer, type Task } from '../tasks/types.js';
import { taskVersion } from '../tasks/version.js';
import { canonicalJson, sha256 } from '../util/hash.js';
import { treeDigest } from './tree-digest.js';

/** Bumped when the entry's meaning changes (what a proof covers, how rows are judged). */
export const PROOF_FORMAT = 'agent-bench-proof/1';

export interface ProofInputs {
  /** The sandbox image id (content-addressed); null when the task needs no sandbox. */
  image: string | null;
  /** harnessDigest(). */
  harness: string;
  /** taskFilesDigest(task): its folder and mounted folders, as content. */
  files: string;
  /** `--metamorphic`: the proof holds the derived runs' rows too (the operators are harness code). */
  metamorphic?: true;
}

export function proofKey(task: Task, inputs: ProofInputs): string {
  return sha256(
    canonicalJson({
      format: PROOF_FORMAT,
      version: taskVersion(task),
      id: task.id,
      oracle: task.referenceSolution,
      lures: task.lures ?? [],
      alternates: (task.alternates ?? []).map((a) => ({ id: a.id, script: a.script })),
      cheats: task.cheats ?? [],
      watchToolCaches: inContainer(task) && task.watchToolCaches === true,
      mounts: inContainer(task) ? task.environment.mounts.map((m) => m.containerPath) : [],
      skill: task.source?.skill ?? null,
      dialogue: task.source?.dialogue ?? null,
      image: inContainer(task) ? inputs.image : null,
      harness: inputs.harness,
      files: inputs.files,
      ...(inputs.metamorphic === true ? { metamorphic: true, skips: task.metamorphicSkips ?? {} } : {}),
    }),
  );
}

/** The host folders a task is read from or mounts, as content (absolute paths left out). */
export function taskFilesDigest(task: Task): string {
  const dirs = task.source?.folders ?? [];
  return sha256(canonicalJson(dirs.map((dir) => treeDigest(dir, ['']))));
}

/**
 * Whether a task's proof may be cached: not when its image is its own (a Harbor task's), built from
 * what the key cannot hold (a base image named by tag, the engine's build of it), so it is proven
 * every time, as Harbor proves its tasks.
 */
export function cacheable(task: Task): boolean {
  return !inContainer(task) || task.environment.image === undefined;
}
