/**
 * A Harbor task folder read as data: instruction.md, task.toml, environment/ (the Dockerfile and
 * its build context), tests/ (copied in only for verification) and solution/solve.sh (the oracle).
 * The folder is walked like any task folder (never followed out of itself), every problem is
 * collected and reported at once, one line each, and the build context is hashed: the key an image
 * built from it is cached under.
 */
import { createHash } from 'node:crypto';
import { basename, resolve } from 'node:path';
import { readSkillFolder, type SkillFolder } from '../../../manifest/folder.js';
import { TaskId } from '../../../manifest/manifest-parts.js';
import { problemsFromIssues } from '../../../manifest/problems.js';
import { INSTRUCTION_FILE } from '../layout.js';
import { parseManifestText } from '../manifest-text.js';
import { type TaskProblem, taskFolderError } from '../problems.js';
import { type DockerfileFacts, dockerfileFacts } from './dockerfile.js';
import { DockerfileSyntaxError } from './dockerfile-parse.js';
import { HarborManifest, memoryMb } from './manifest.js';

export const HARBOR_ENVIRONMENT = 'environment';
export const HARBOR_TEST_SCRIPT = 'tests/test.sh';
const DOCKERFILE = `${HARBOR_ENVIRONMENT}/Dockerfile`;
const SOLVE_SCRIPT = 'solution/solve.sh';

/** Harbor environments carry data files; the walk's limits are a skill's. */
const HARBOR_FOLDER = { noun: 'task', marker: 'task.toml', maxBytes: 200 * 1024 * 1024 };

export interface HarborTask {
  id: string;
  /** Absolute path of the folder. */
  dir: string;
  instruction: string;
  /** environment/Dockerfile's text and what it says; null when task.toml names a pre-built image. */
  dockerfile: { text: string; facts: DockerfileFacts } | null;
  /** sha256 of environment/ (paths, executable bits, contents): the image cache key. */
  contextDigest: string;
  verifier: { timeoutSec: number; env: Record<string, string> };
  agentTimeoutSec: number;
  environment: {
    buildTimeoutSec: number;
    dockerImage: string | null;
    cpus: number;
    memoryMb: number;
    allowInternet: boolean;
  };
  /** Files under tests/, relative to it. */
  tests: string[];
  /** solution/solve.sh is there: the oracle `validate` runs. */
  hasSolution: boolean;
  /** Files under solution/, relative to it (copied to /solution for the oracle). */
  solution: string[];
}

export function loadHarborFolder(dir: string): HarborTask {
  const abs = resolve(dir);
  const { folder, problems: walked } = readSkillFolder(abs, HARBOR_FOLDER);
  const problems: TaskProblem[] = walked.map((p) => ({ file: p.at, at: '', message: p.message }));
  if (folder === null) throw taskFolderError(dir, problems);
  const text = (rel: string): string | null => {
    if (!folder.files.has(rel)) return null;
    return folder.read(rel).toString('utf8');
  };
  const id = basename(abs);
  if (!TaskId.safeParse(id).success)
    problems.push({
      file: '',
      at: '',
      message: `the folder's name "${id}" is no task id (letters, digits, _.-)`,
    });
  const instruction = text(INSTRUCTION_FILE);
  if (instruction === null)
    problems.push({ file: INSTRUCTION_FILE, at: '', message: 'not found in the task folder' });
  if (!folder.files.has(HARBOR_TEST_SCRIPT))
    problems.push({ file: HARBOR_TEST_SCRIPT, at: '', message: 'not found: the verifier Harbor runs' });
  const manifest = readManifest(text('task.toml'), problems);
  const dockerText = text(DOCKERFILE);
  let dockerfile: HarborTask['dockerfile'] = null;
  if (dockerText !== null) {
    const facts = factsOf(dockerText, problems);
    if (facts !== null) dockerfile = { text: dockerText, facts };
  } else if (manifest !== null && manifest.environment.docker_image === null)
    problems.push({
      file: DOCKERFILE,
      at: '',
      message: 'not found, and task.toml names no environment.docker_image',
    });
  if (problems.length > 0 || manifest === null || instruction === null) throw taskFolderError(dir, problems);
  const env = manifest.environment;
  return {
    id,
    dir: abs,
    instruction,
    dockerfile,
    contextDigest: contextDigest(folder),
    verifier: { timeoutSec: manifest.verifier.timeout_sec, env: manifest.verifier.env },
    agentTimeoutSec: manifest.agent.timeout_sec,
    environment: {
      buildTimeoutSec: env.build_timeout_sec,
      dockerImage: env.docker_image,
      cpus: env.cpus,
      memoryMb: memoryMb(env),
      allowInternet: env.allow_internet,
    },
    tests: under(folder, 'tests/'),
    hasSolution: folder.files.has(SOLVE_SCRIPT),
    solution: under(folder, 'solution/'),
  };
}

function factsOf(text: string, problems: TaskProblem[]): DockerfileFacts | null {
  try {
    const facts = dockerfileFacts(text);
    if (facts === null) problems.push({ file: DOCKERFILE, at: '', message: 'has no FROM' });
    return facts;
  } catch (err) {
    if (!(err instanceof DockerfileSyntaxError)) throw err;
    problems.push({ file: DOCKERFILE, at: '', message: err.message });
    return null;
  }
}

function readManifest(text: string | null, problems: TaskProblem[]): HarborManifest | null {
  if (text === null) {
    problems.push({ file: 'task.toml', at: '', message: 'not found in the task folder' });
    return null;
  }
  const parsed = parseManifestText('task.toml', text);
  if (!parsed.ok) {
    problems.push({ file: 'task.toml', at: parsed.at, message: parsed.message });
    return null;
  }
  const checked = HarborManifest.safeParse(parsed.value);
  if (!checked.success) {
    for (const p of problemsFromIssues(checked.error.issues, parsed.value))
      problems.push({ file: 'task.toml', ...p });
    return null;
  }
  return checked.data;
}

function under(folder: SkillFolder, prefix: string): string[] {
  return [...folder.files.keys()].filter((p) => p.startsWith(prefix)).map((p) => p.slice(prefix.length));
}

function contextDigest(folder: SkillFolder): string {
  const hash = createHash('sha256');
  const paths = [...folder.files.keys()].filter((p) => p.startsWith(`${HARBOR_ENVIRONMENT}/`)).sort();
  for (const p of paths) {
    const exec = ((folder.files.get(p)?.mode ?? 0) & 0o111) !== 0;
    const bytes = folder.read(p);
    hash.update(`${p}\0${exec ? 'x' : '-'}\0${bytes.length}\0`).update(bytes);
  }
  return hash.digest('hex');
}
