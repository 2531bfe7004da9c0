/**
 * A generated instance of a variant task, as a folder: the task's folder with the generator's
 * files/, hidden/, solution/ and instance.json in place of its own, read by the same loader as any
 * task folder (src/catalogue/native/load.ts), so an instance is checked as a folder is. A skill folder's instance
 * replaces only the files its generator wrote (`replaced` says none other).
 */
import { type InstanceTree, isGenerated } from '../tasks/variants/instance-tree.js';
import type { SkillFolder } from './folder.js';

export function overlayFolder(
  folder: SkillFolder,
  tree: InstanceTree,
  replaced: (rel: string) => boolean = isGenerated,
): SkillFolder {
  const files = new Map<string, { size: number; mode: number }>();
  for (const [rel, f] of folder.files) if (!replaced(rel)) files.set(rel, f);
  for (const [rel, f] of tree) files.set(rel, { size: f.content.length, mode: f.mode });
  return {
    dir: folder.dir,
    noun: folder.noun,
    files,
    read: (rel) => tree.get(rel)?.content ?? folder.read(rel),
  };
}
