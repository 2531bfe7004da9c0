/**
 * `"variants"` of a skill's bench_manifest.json: the skill is benched on a fresh instance per trial
 * (the data its scripts process, say), drawn by the same mechanism as a task folder's [variants]
 * (src/tasks/variants/). The generator writes the skill folder's files it varies, at their paths in
 * the folder, and the instance's values in .bench/instance.json (bench-only: the agent never sees
 * them); `{{instance.key}}` in the manifest's strings (goal, checks, stubs, scripted runs) is filled
 * from them. The folder keeps one instance of its own, its own .bench/instance.json.
 */
import type { SkillFolder } from '../manifest/folder.js';
import type { Problem } from '../manifest/problems.js';
import { SKILL_INSTANCE_FILE } from '../tasks/variants/instance-tree.js';
import { fillStrings } from '../tasks/variants/template.js';

/** Keys that are notes (manifest.ts): never filled, so a note may show a placeholder as it is. */
const isNote = (key: string): boolean =>
  key.startsWith('_') || key.startsWith('$') || ['description', 'name', 'version'].includes(key);

/**
 * The manifest with its `{{instance.*}}` filled, and the values they were filled from: null for a
 * manifest without `"variants"` (read as it is). Undefined when the values cannot be read, or a
 * placeholder names no value (each a problem).
 */
export function withInstanceValues(
  raw: unknown,
  folder: SkillFolder,
  instance: string | null,
  problems: Problem[],
): { raw: unknown; values: Readonly<Record<string, unknown>> | null } | undefined {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw) || !('variants' in raw))
    return { raw, values: null };
  const values = readValues(folder, problems);
  if (values === undefined) return undefined;
  const id = (raw as { id?: unknown }).id;
  const scope = {
    taskId: typeof id === 'string' ? id : (folder.dir.split('/').at(-1) ?? ''),
    instanceId: instance ?? 'of the folder',
    values,
  };
  try {
    const filled = Object.fromEntries(
      Object.entries(raw).map(([k, v]) => [k, k === 'variants' || isNote(k) ? v : fillStrings(v, scope)]),
    );
    return { raw: filled, values };
  } catch (err) {
    problems.push({ at: 'bench_manifest.json', message: (err as Error).message });
    return undefined;
  }
}

function readValues(folder: SkillFolder, problems: Problem[]): Record<string, unknown> | undefined {
  if (!folder.files.has(SKILL_INSTANCE_FILE)) {
    problems.push({
      at: SKILL_INSTANCE_FILE,
      message: 'a skill with "variants" keeps one instance of its own: its values in this file',
    });
    return undefined;
  }
  let values: unknown;
  try {
    values = JSON.parse(folder.read(SKILL_INSTANCE_FILE).toString('utf8'));
  } catch (err) {
    problems.push({ at: SKILL_INSTANCE_FILE, message: `not valid JSON: ${(err as Error).message}` });
    return undefined;
  }
  if (values === null || typeof values !== 'object' || Array.isArray(values)) {
    problems.push({ at: SKILL_INSTANCE_FILE, message: 'must hold a JSON object' });
    return undefined;
  }
  return values as Record<string, unknown>;
}
