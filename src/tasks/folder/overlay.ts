/**
 * A generated instance of a variant task, as a folder: the task's folder with the generator's
 * files/, hidden/, solution/ and instance.json in place of its own, read by the same loader as any
 * task folder (load.ts), so an instance is checked as a folder is.
 */
import type { SkillFolder } from '../../manifest/folder.js';
import { type InstanceTree, isGenerated } from '../variants/instance-tree.js';

export function overlayFolder(folder: SkillFolder, tree: InstanceTree): SkillFolder {
  const files = new Map<string, { size: number; mode: number }>();
  for (const [rel, f] of folder.files) if (!isGenerated(rel)) files.set(rel, f);
  for (const [rel, f] of tree) files.set(rel, { size: f.content.length, mode: f.mode });
  return {
    dir: folder.dir,
    noun: folder.noun,
    files,
    read: (rel) => tree.get(rel)?.content ?? folder.read(rel),
  };
}
