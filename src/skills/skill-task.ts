/**
 * A Task from a loaded skill: the folder mounted read-only at /workspace/skill, nothing else in the
 * workspace, the manifest's flags, and its reference solution, lures (plus the automatic ones),
 * alternates and cheats.
 * The mount's host copy is staged on first use, not when the task is built: listing tasks never
 * writes anything.
 */

import { mountedFiles } from '../manifest/folder.js';
import { SKILL_MOUNT } from '../manifest/mount-point.js';
import { WORKSPACE_DIR } from '../sandbox/types.js';
import {
  type ContainerEnvironment,
  FLAG_JUDGE,
  SANDBOX_ENVIRONMENT,
  type SkillTask,
  type TaskFile,
} from '../tasks/types.js';
import { autoLures } from './auto-lures.js';
import { skillFlags } from './flags.js';
import type { LoadedSkill } from './load.js';
import { skillPrompt } from './prompt.js';
import { stageSkill } from './stage.js';
import { recorderSource } from './stubs.js';

/** The id of the no-skill variant of a skill task (`--skill-ab`). */
export const NO_SKILL_SUFFIX = '__noskill';

/** The caches of Python run from the workspace. */
const IGNORED = ['__pycache__', '*.pyc'];

const MOUNT_CHECK = `test -r skill/SKILL.md || { echo "no skill mounted at ${SKILL_MOUNT}" >&2; exit 1; }`;

export function skillTask(skill: LoadedSkill, opts: { withSkill: boolean } = { withSkill: true }): SkillTask {
  const { spec } = skill;
  const flags = skillFlags(spec, opts.withSkill);
  const reference = spec.referenceSolution ?? [];
  const lures = opts.withSkill
    ? [
        ...spec.lures,
        ...(reference.length === 0
          ? []
          : autoLures(
              spec,
              reference,
              flags.map((f) => f.id),
            )),
      ]
    : [];
  const task = {
    kind: 'skill' as const,
    id: opts.withSkill ? spec.id : `${spec.id}${NO_SKILL_SUFFIX}`,
    meta: spec.meta,
    prompt: skillPrompt(spec, opts.withSkill),
    maxTurns: spec.maxTurns,
    allowedWrites: spec.allowedWrites,
    ignored: [...IGNORED, ...spec.ignored],
    ...(spec.watchToolCaches ? { watchToolCaches: true } : {}),
    files: [],
    // A runner that forgot the mount fails the setup loudly instead of failing every trial quietly.
    ...(opts.withSkill ? { setupCommands: [MOUNT_CHECK] } : {}),
    judge: FLAG_JUDGE,
    // The servers are the environment's, not the skill's: the no-skill variant has them too.
    ...(spec.mcpServers.length === 0 ? {} : { mcpServers: spec.mcpServers }),
    flags,
    referenceSolution: opts.withSkill ? reference : [],
    lures,
    alternates: opts.withSkill ? spec.alternates : [],
    cheats: opts.withSkill ? spec.cheats : [],
    metamorphicSkips: spec.metamorphicSkips,
  };
  // Without the skill (--skill-ab's other half) nothing is mounted.
  if (!opts.withSkill)
    return {
      ...task,
      environment: SANDBOX_ENVIRONMENT,
      source: { folders: [], from: { noun: 'skill', dir: skill.dir }, skill: skill.digest },
      mountedFiles: [],
    };
  let staged: string | null = null;
  let texts: TaskFile[] | null = null;
  const v = skill.variants;
  // Staged on first use: listing tasks stages nothing.
  const environment: ContainerEnvironment = {
    place: 'container',
    get mounts() {
      staged ??= stageSkill(skill.folder, skill.digest, spec.stubs);
      return [{ hostPath: staged, containerPath: SKILL_MOUNT }];
    },
  };
  return {
    ...task,
    environment,
    source: {
      skill: skill.digest,
      from: { noun: 'skill', dir: skill.dir },
      // What the task is read from is what it mounts: the staged copy, as content.
      get folders() {
        return environment.mounts.map((m) => m.hostPath);
      },
    },
    ...(v === undefined
      ? {}
      : {
          variants: { ...v, instanceOf: (tree, id) => skillTask(v.instanceOf(tree, id), opts) },
        }),
    // What reads of the skill's files are matched against (src/scoring/seen.ts).
    get mountedFiles() {
      texts ??= skillTexts(skill);
      return texts;
    },
  };
}

/**
 * The skill's text files as the agent finds them under the mount (binary files are left out): the
 * mounted files only, each stubbed script as its recorder.
 */
function skillTexts(skill: LoadedSkill): TaskFile[] {
  const prefix = SKILL_MOUNT.slice(WORKSPACE_DIR.length + 1);
  const stubs = new Map(skill.spec.stubs.map((s) => [s.script, s]));
  const out: TaskFile[] = [];
  for (const rel of mountedFiles(skill.folder)) {
    const stub = stubs.get(rel);
    const bytes = stub === undefined ? skill.folder.read(rel) : Buffer.from(recorderSource(stub));
    if (bytes.includes(0)) continue;
    out.push({ path: `${prefix}/${rel}`, content: bytes.toString('utf8') });
  }
  return out;
}
