/**
 * A task folder, by name: what each part is called and how big the folder may be. One folder per
 * task: the manifest, the instruction, the starting workspace, the hidden files, the files the
 * scripted runs use, and flag code when a check needs code.
 */
import type { FolderKind } from '../../manifest/folder.js';

/** The manifest, TOML or JSON (the same keys); a folder has one of them. */
export const MANIFEST_FILES = ['task.toml', 'task.json'] as const;
/** The prompt, as the agent reads it. */
export const INSTRUCTION_FILE = 'instruction.md';
/** The starting workspace: every file under it is placed in /workspace, at the same path. */
export const FILES_DIR = 'files';
/** Placed for the checks only, after the agent's last turn (HIDDEN_DIR in the sandbox). */
export const HIDDEN_FILES_DIR = 'hidden';
/** A variant task's values for `{{instance.*}}`: the folder's own instance, or a generated one's. */
export { INSTANCE_FILE } from '../../tasks/variants/instance-tree.js';
/** Checks that need code: named exports, each a check function. */
export const FLAGS_FILE = 'flags.ts';

/**
 * Task folders are read like skill folders (never followed out of themselves, special files
 * refused). Their files are loaded with the catalogue and placed into every trial, so the limit
 * is well below a skill's.
 */
export const TASK_FOLDER: FolderKind = { noun: 'task', marker: 'task.toml', maxBytes: 32 * 1024 * 1024 };
