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
  // tasks/<id>/task.toml makes a task folder: its own proof hashes it (and its compiled code).
  const inTaskFolder = (rel: string): boolean => {
    const folder = /^(?:dist\/)?(tasks\/[^/]+)$/.exec(rel);
    return folder !== null && existsSync(join(root, folder[1] as string, 'task.toml'));
  };
  const clone = existsSync(join(root, 'src'));
  const skip = (rel: string): boolean => inTaskFolder(rel) || notRunnable(root, rel, clone);
  const code = treeDigest(root, HARNESS_ENTRIES, skip);
  return `${HARNESS_VERSION}:${sha256(canonicalJson({ code, node: process.version }))}`;
}

/** A file under dist/ that no code runs: a source map, or (in a clone) output whose source is gone. */
function notRunnable(root: string, rel: string, clone: boolean): boolean {
  if (!rel.startsWith('dist/')) return false;
  if (rel.endsWith('.map')) return true;
  const compiled = /^dist\/(.+)\.js$/.exec(rel);
  return clone && compiled !== null && !existsSync(join(root, `${compiled[1]}.ts`));
}
