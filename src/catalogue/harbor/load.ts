/**
 * A Harbor task folder read as data: instruction.md, task.toml, environment/ (the Dockerfile and
 * its build context), tests/ (copied in only for verification) and solution/solve.sh (the oracle).
 * The folder is walked like any task folder (never followed out of itself), every problem is
 * collected and reported at once, one line each, and the build context is hashed: the key an image
 * built from it is cached under. A multi-step task (`[[steps]]`, `steps/<name>/`) is refused in one
 * line that says so, not with the files a single-step task would miss.
 */
import { createHash } from 'node:crypto';
import { basename, join, posix, resolve } from 'node:path';
import { readSkillFolder, type SkillFolder } from '../../manifest/folder.js';
import { TaskId } from '../../manifest/manifest-parts.js';
import { problemsFromIssues } from '../../manifest/problems.js';
import type { ServiceDecl } from '../../sandbox/types.js';
import type { McpServerSpec } from '../../tasks/mcp-servers.js';
import { parseManifestText } from '../manifest-text.js';
import { INSTRUCTION_FILE } from '../native/layout.js';
import { type TaskProblem, taskFolderError } from '../problems.js';
import { COMPOSE_FILE, composeServices } from '../services/compose.js';
import { type ResolveOptions, resolveServices } from '../services/resolve.js';
import type { Findings } from '../services/service-entry.js';
import { type DockerfileFacts, dockerfileFacts } from './dockerfile.js';
import { DockerfileSyntaxError } from './dockerfile-parse.js';
import { HarborManifest, ignoredKeys, memoryMb, schemaVersion } from './manifest.js';
import { resolveVariables } from './variables.js';

export const HARBOR_ENVIRONMENT = 'environment';
export const HARBOR_TEST_SCRIPT = 'tests/test.sh';
const DOCKERFILE = `${HARBOR_ENVIRONMENT}/Dockerfile`;
const SOLVE_SCRIPT = 'solution/solve.sh';
const COMPOSE = `${HARBOR_ENVIRONMENT}/${COMPOSE_FILE}`;
const VERIFIER_DOCKERFILE = 'tests/Dockerfile';
const STEPS_DIR = 'steps/';
export const MULTI_STEP_REFUSAL = 'multi-step Harbor tasks ([[steps]]) are not supported yet';

/** Harbor environments carry data files; the walk's limits are a skill's. */
const HARBOR_FOLDER = { noun: 'task', marker: 'task.toml', maxBytes: 200 * 1024 * 1024 };

export interface HarborTask {
  id: string;
  /** Absolute path of the folder. */
  dir: string;
  instruction: string;
  /** task.toml's `schema_version` (or the older `version`), as written; null when it gives none. */
  schemaVersion: string | null;
  /** environment/Dockerfile's text and what it says; null when task.toml names a pre-built image. */
  dockerfile: { text: string; facts: DockerfileFacts } | null;
  /** sha256 of environment/ (paths, executable bits, contents): the image cache key. */
  contextDigest: string;
  /** test.sh's variables: the environment's, then [verifier] env's over them (Harbor sets both). */
  verifier: {
    timeoutSec: number;
    env: Record<string, string>;
    /**
     * A verifier of its own (Harbor's separate mode): tests/ is a build context (it has a Dockerfile),
     * or [verifier.environment] names an image; null: the verifier runs in the task's own image.
     */
    separate: { kind: 'build' } | { kind: 'image'; image: string } | null;
    /**
     * task.toml's `artifacts`, relative to the workdir: all a separate verifier is given of the
     * agent's work; null when none are declared (it gets the whole workdir) or the verifier is shared.
     */
    artifacts: string[] | null;
  };
  agentTimeoutSec: number;
  /** solve.sh's variables: the environment's, then [solution] env's over them. */
  oracleEnv: Record<string, string>;
  environment: {
    buildTimeoutSec: number;
    dockerImage: string | null;
    cpus: number;
    memoryMb: number;
    allowInternet: boolean;
    /** task.toml's `workdir`: where the agent works, over the image's own WORKDIR; null when not set. */
    workdir: string | null;
    /** task.toml's [environment.env], resolved: what every process in the environment gets. */
    env: Record<string, string>;
    /** `[[environment.mcp_servers]]`: their tools are offered to the model. */
    mcpServers: readonly McpServerSpec[];
  };
  /** task.toml keys that change how Harbor runs a task and that agent-bench does not honour (manifest.ts). */
  ignoredKeys: string[];
  /** Files under tests/, relative to it. */
  tests: string[];
  /** environment/docker-compose.yaml's services, besides `main` (none without the file). */
  services: ServiceDecl[];
  /** What the compose file says that agent-bench ignores, one line each (the task's warning names them). */
  composeNotes: string[];
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
  const toml = readToml(text('task.toml'), problems);
  if (isMultiStep(toml, folder))
    throw taskFolderError(dir, [{ file: '', at: '', message: MULTI_STEP_REFUSAL }]);
  const manifest = toml === null ? null : checkManifest(toml, problems);
  const env = manifest === null ? null : environmentVariables(manifest, problems);
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
  const compose = composeOf(text(COMPOSE), abs, manifest, problems);
  const separate = manifest === null ? null : separateVerifier(manifest, folder, problems);
  if (problems.length > 0 || manifest === null || env === null || instruction === null)
    throw taskFolderError(dir, problems);
  const e = manifest.environment;
  const workdir = e.workdir ?? dockerfile?.facts.workdir ?? '/';
  const artifacts = separate === null ? null : artifactsOf(manifest, workdir, problems);
  if (problems.length > 0) throw taskFolderError(dir, problems);
  return {
    id,
    dir: abs,
    instruction,
    schemaVersion: schemaVersion(manifest),
    dockerfile,
    contextDigest: contextDigest(folder),
    verifier: {
      timeoutSec: manifest.verifier.timeout_sec,
      env: { ...env, ...manifest.verifier.env },
      separate,
      artifacts,
    },
    agentTimeoutSec: manifest.agent.timeout_sec,
    oracleEnv: { ...env, ...manifest.solution.env },
    environment: {
      buildTimeoutSec: e.build_timeout_sec,
      dockerImage: e.docker_image,
      cpus: e.cpus,
      memoryMb: memoryMb(e),
      allowInternet: e.allow_internet,
      workdir: e.workdir ?? null,
      env,
      mcpServers: e.mcp_servers,
    },
    // A separate verifier honours artifacts; a shared one sees the whole workdir anyway.
    ignoredKeys: ignoredKeys(toml as Record<string, unknown>).filter(
      (k) => separate === null || k !== 'artifacts',
    ),
    services: compose.services,
    composeNotes: compose.notes,
    tests: under(folder, 'tests/'),
    hasSolution: folder.files.has(SOLVE_SCRIPT),
    solution: under(folder, 'solution/'),
  };
}

/**
 * environment/docker-compose.yaml read (services.ts), its build folders checked as they will be
 * built: a problem there stops the task at load, before any image is built.
 */
function composeOf(
  text: string | null,
  dir: string,
  manifest: HarborManifest | null,
  problems: TaskProblem[],
): { services: ServiceDecl[]; notes: string[] } {
  if (text === null) return { services: [], notes: [] };
  const found: Findings = { problems: [], notes: [] };
  const services = composeServices(text, found);
  if (found.problems.length === 0)
    resolveServices(
      services,
      harborServiceRoot(dir, manifest?.environment.build_timeout_sec ?? 600),
      found.problems,
    );
  for (const message of found.problems) problems.push({ file: COMPOSE, at: '', message });
  return { services, notes: found.notes.map((n) => `${COMPOSE}: ${n}`) };
}

/** Harbor's separate verifier: tests/Dockerfile, else [verifier.environment] docker_image; mode `separate` needs one. */
function separateVerifier(
  m: HarborManifest,
  folder: SkillFolder,
  problems: TaskProblem[],
): HarborTask['verifier']['separate'] {
  if (folder.files.has(VERIFIER_DOCKERFILE)) return { kind: 'build' };
  const image = m.verifier.environment?.docker_image;
  if (image !== undefined) return { kind: 'image', image };
  if (m.verifier.environment_mode === 'separate')
    problems.push({
      file: 'task.toml',
      at: 'verifier.environment_mode',
      message: `"separate" needs ${VERIFIER_DOCKERFILE} or [verifier.environment] docker_image`,
    });
  return null;
}

/**
 * task.toml's artifacts as paths relative to the workdir, where the agent's work is (a model's
 * /workspace): one elsewhere could not be copied from a model's sandbox, so it is refused.
 */
function artifactsOf(m: HarborManifest, workdir: string, problems: TaskProblem[]): string[] | null {
  if (m.artifacts.length === 0) return null;
  const out: string[] = [];
  for (const [i, a] of m.artifacts.entries()) {
    const source = typeof a === 'string' ? a : a.source;
    const rel = posix.relative(workdir, posix.resolve(workdir, source));
    if (!posix.isAbsolute(source) || rel === '..' || rel.startsWith('../'))
      problems.push({
        file: 'task.toml',
        at: `artifacts[${i}]`,
        message: `${source} is not a path inside the workdir ${workdir}: a separate verifier is given artifacts of the agent's workdir only`,
      });
    else out.push(rel === '' ? '.' : rel);
  }
  return out;
}

/** Where a Harbor task's sidecars are built from: environment/, with the task's build timeout. */
export function harborServiceRoot(dir: string, buildTimeoutSec: number, baseImage?: string): ResolveOptions {
  return {
    root: join(dir, HARBOR_ENVIRONMENT),
    rootName: `${HARBOR_ENVIRONMENT}/`,
    buildTimeoutSec,
    ...(baseImage === undefined ? {} : { baseImage }),
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

/** task.toml as plain data, or null (its problem added). */
function readToml(text: string | null, problems: TaskProblem[]): unknown {
  if (text === null) {
    problems.push({ file: 'task.toml', at: '', message: 'not found in the task folder' });
    return null;
  }
  const parsed = parseManifestText('task.toml', text);
  if (!parsed.ok) {
    problems.push({ file: 'task.toml', at: parsed.at, message: parsed.message });
    return null;
  }
  return parsed.value;
}

function checkManifest(value: unknown, problems: TaskProblem[]): HarborManifest | null {
  const checked = HarborManifest.safeParse(value);
  if (!checked.success) {
    for (const p of problemsFromIssues(checked.error.issues, value))
      problems.push({ file: 'task.toml', ...p });
    return null;
  }
  return checked.data;
}

/** Harbor's layout of a multi-step task: `[[steps]]` in task.toml, or a steps/ folder. */
function isMultiStep(toml: unknown, folder: SkillFolder): boolean {
  const steps = typeof toml === 'object' && toml !== null ? (toml as { steps?: unknown }).steps : undefined;
  if (steps !== undefined) return true;
  return [...folder.files.keys()].some((p) => p.startsWith(STEPS_DIR));
}

/** [environment.env] with the host's variables it names filled in, or null (its problems added). */
function environmentVariables(m: HarborManifest, problems: TaskProblem[]): Record<string, string> | null {
  const { values, problems: unresolved } = resolveVariables(m.environment.env, process.env);
  for (const p of unresolved)
    problems.push({ file: 'task.toml', at: `environment.env.${p.key}`, message: p.message });
  return unresolved.length === 0 ? values : null;
}

/** Where the agent works and the task's scripts run: task.toml's workdir, else the Dockerfile's last WORKDIR, else `/`. */
export function harborWorkdir(h: Pick<HarborTask, 'environment' | 'dockerfile'>): string {
  return h.environment.workdir ?? h.dockerfile?.facts.workdir ?? '/';
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
