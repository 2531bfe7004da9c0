/**
 * What agent-bench needs to know of a Harbor task's environment/Dockerfile, read from its
 * instructions (not run): the base image of its last stage, the working directory the agent is put
 * in (its last WORKDIR, as Docker resolves it), and the Dockerfile rebuilt on another base image
 * (`--base-image`, for offline machines). Read as BuildKit reads it (dockerfile-parse.ts): a heredoc's
 * body is never taken for instructions.
 */
import { parseDockerfile } from './dockerfile-parse.js';

export interface DockerfileFacts {
  /** The last stage's FROM image, as written (a build arg stays unexpanded). */
  baseImage: string;
  /** Where the agent works: the last stage's last WORKDIR, absolute; `/` when it sets none. */
  workdir: string;
}

/** FROM's image, without `--platform=...` and `AS name`. */
function fromImage(args: string): { image: string; stage: string | null } {
  const words = args.split(/\s+/).filter((w) => !w.startsWith('--'));
  const as = words.findIndex((w) => w.toUpperCase() === 'AS');
  return { image: words[0] ?? '', stage: as >= 0 ? (words[as + 1] ?? null) : null };
}

/** A WORKDIR argument, surrounding quotes removed: Docker has no JSON form for WORKDIR (`["/x"]` is a path). */
function workdirArg(args: string): string {
  return args.replace(/^(["'])(.*)\1$/, '$2');
}

/** null when the Dockerfile has no FROM; throws DockerfileSyntaxError on a heredoc never ended. */
export function dockerfileFacts(text: string): DockerfileFacts | null {
  let baseImage: string | null = null;
  let workdir = '/';
  for (const ins of parseDockerfile(text).instructions) {
    if (ins.keyword === 'FROM') {
      baseImage = fromImage(ins.args).image;
      workdir = '/';
    } else if (ins.keyword === 'WORKDIR' && baseImage !== null) {
      const dir = workdirArg(ins.args);
      workdir = normalize(dir.startsWith('/') ? dir : `${workdir}/${dir}`);
    }
  }
  return baseImage === null ? null : { baseImage, workdir };
}

function normalize(path: string): string {
  const parts: string[] = [];
  for (const p of path.split('/')) {
    if (p === '' || p === '.') continue;
    if (p === '..') parts.pop();
    else parts.push(p);
  }
  return `/${parts.join('/')}`;
}

/**
 * The Dockerfile with every FROM that names an image (not an earlier stage) set to `image`: the
 * task's own steps, on a base this machine has.
 */
export function onBaseImage(text: string, image: string): string {
  const lines = text.split('\n');
  const stages = new Set<string>();
  for (const ins of parseDockerfile(text).instructions) {
    if (ins.keyword !== 'FROM') continue;
    const { image: from, stage } = fromImage(ins.args);
    if (!stages.has(from.toLowerCase()))
      lines[ins.line] = (lines[ins.line] ?? '').replace(
        /^(\s*FROM\s+(?:--\S+\s+)*)\S+/i,
        (_m, head: string) => `${head}${image}`,
      );
    if (stage !== null) stages.add(stage.toLowerCase());
  }
  return lines.join('\n');
}
