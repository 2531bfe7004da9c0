/**
 * The harness's part of a proof's key: everything of agent-bench that decides a verdict, as content.
 * That is the code a proof can run — the modules `validate` and the tasks' own modules reach by their
 * imports (module-closure.ts), as sources and as their compiled twins in dist/ (the tests run src/,
 * the CLI dist/; hashing both keeps a proof honest when dist/ is older than src/), or all the
 * compiled code an installed package ships — the sandbox's own scripts, the package version and its
 * pinned dependencies, and the task code that is not in a task folder. Code no proof runs (reports,
 * the dashboard, the ladder, the model clients) is left out, so changing it re-proves nothing. A task
 * folder is hashed with its own proof instead (proof-key.ts), so editing one task re-proves that
 * task only.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson, sha256 } from '../util/hash.js';
import { packageRoot } from '../util/package-root.js';
import { HARNESS_VERSION } from '../util/version.js';
import { moduleClosure } from './module-closure.js';
import { treeDigest } from './tree-digest.js';

const OTHER_ENTRIES = [
  'sandbox',
  'bin',
  'tasks',
  'Dockerfile',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
];

/** Where a proof's code starts: the validate command; the task modules are added to it. */
const VALIDATE_ENTRY = 'src/cli/commands/validate';

/** A task's data, not code (tsconfig.build.json leaves them out too). */
const TASK_DATA = new Set(['files', 'hidden', 'solution']);

/** `version:sha256`: the package version, then the content hash. */
export function harnessDigest(root: string = packageRoot()): string {
  // tasks/<id>/task.toml makes a task folder: its own proof hashes it (and its compiled code).
  const taskFolder = (rel: string): boolean => {
    const folder = /^(?:dist\/)?(tasks\/[^/]+)(?:\/|$)/.exec(rel);
    return folder !== null && existsSync(join(root, folder[1] as string, 'task.toml'));
  };
  const clone = existsSync(join(root, 'src'));
  const source = clone ? 'ts' : 'js';
  const base = clone ? '' : 'dist/';
  const entries = [`${base}${VALIDATE_ENTRY}.${source}`, ...taskModules(root, `${base}tasks`, source)];
  const code = moduleClosure(root, entries, source).filter((rel) => !taskFolder(rel));
  const compiled = clone ? code.map((rel) => `dist/${rel.replace(/\.ts$/, '.js')}`) : [];
  const digest = treeDigest(
    root,
    [...code, ...compiled, ...OTHER_ENTRIES],
    (rel) => /^tasks\/[^/]+$/.test(rel) && taskFolder(rel),
  );
  return `${HARNESS_VERSION}:${sha256(canonicalJson({ code: digest, node: process.version }))}`;
}

/** Every module under tasks/ (task folders included: what they import from the harness counts). */
function taskModules(root: string, dir: string, source: 'ts' | 'js'): string[] {
  if (!existsSync(join(root, dir))) return [];
  const out: string[] = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      const depth = rel.split('/').length - (dir.startsWith('dist/') ? 1 : 0);
      if (!(depth === 3 && TASK_DATA.has(entry.name))) out.push(...taskModules(root, rel, source));
    } else if (entry.name.endsWith(`.${source}`) && !entry.name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}
