/**
 * The harness's part of a proof's key: everything of agent-bench that decides a verdict, as content.
 * That is its code as it runs (src/ under the tests, dist/ from bin/), the sandbox's own scripts,
 * the package version and its pinned dependencies, and the task code that is not in a task folder
 * (tasks written as TypeScript modules, their shared helpers). A task folder is hashed with its own
 * proof instead (proof-key.ts), so editing one task re-proves that task only.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson, sha256 } from '../util/hash.js';
import { packageRoot } from '../util/package-root.js';
import { HARNESS_VERSION } from '../util/version.js';
import { treeDigest } from './tree-digest.js';

const HARNESS_ENTRIES = [
  'src',
  'dist',
  'sandbox',
  'bin',
  'tasks',
  'Dockerfile',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
];

/** `version:sha256`: the package version, then the content hash. */
export function harnessDigest(root: string = packageRoot()): string {
  // tasks/<id>/task.toml makes a task folder: its own proof hashes it.
  const inTaskFolder = (rel: string): boolean =>
    /^tasks\/[^/]+$/.test(rel) && existsSync(join(root, rel, 'task.toml'));
  const code = treeDigest(root, HARNESS_ENTRIES, inTaskFolder);
  return `${HARNESS_VERSION}:${sha256(canonicalJson({ code, node: process.version }))}`;
}
