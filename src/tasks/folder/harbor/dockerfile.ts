/**
 * What agent-bench needs to know of a Harbor task's environment/Dockerfile, read from its
 * instructions (not run): the base image of its last stage, the working directory the agent is put
 * in (its last WORKDIR, as Docker resolves it), and the Dockerfile rebuilt on another base image
 * (`--base-image`, for offline machines). Line continuations are joined first, comments and parser
 * directives skipped, as Docker's own parser does.
 */

export interface DockerfileFacts {
  /** The last stage's FROM image, as written (a build arg stays unexpanded). */
  baseImage: string;
  /** Where the agent works: the last stage's last WORKDIR, absolute; `/` when it sets none. */
  workdir: string;
}

interface Instruction {
  keyword: string;
  args: string;
  /** Index of the instruction's first line. */
  line: number;
}

function instructions(text: string): Instruction[] {
  const out: Instruction[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const first = i;
    let line = lines[i] ?? '';
    if (/^\s*(#.*)?$/.test(line)) continue;
    while (/\\\s*$/.test(line) && i + 1 < lines.length) {
      i++;
      const next = lines[i] ?? '';
      if (/^\s*#/.test(next)) continue;
      line = `${line.replace(/\\\s*$/, '')} ${next.trim()}`;
    }
    const m = /^\s*([A-Za-z]+)\s*(.*)$/.exec(line);
    if (m !== null) out.push({ keyword: (m[1] ?? '').toUpperCase(), args: (m[2] ?? '').trim(), line: first });
  }
  return out;
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

/** null when the Dockerfile has no FROM. */
export function dockerfileFacts(text: string): DockerfileFacts | null {
  let baseImage: string | null = null;
  let workdir = '/';
  for (const ins of instructions(text)) {
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
  for (const ins of instructions(text)) {
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
