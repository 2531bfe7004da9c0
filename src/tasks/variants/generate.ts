/**
 * Runs a variant task's generator in a sandbox of the task's image: offline, as the checker (not
 * root, not the agent), from a copy of the task folder it cannot change (root's, read-only to it),
 * writing only OUTDIR under the checker's own home. `generate SEED OUTDIR` then reads back what it
 * wrote. A generator that fails is the task's fault and never the model's: it throws, and a run
 * records the trial as the harness's error.
 */
import { CHECKER_HOME, type Sandbox } from '../../sandbox/types.js';
import { InfraError, UsageError } from '../../util/errors.js';
import type { GeneratedVariants } from '../types.js';
import type { InstanceFile, InstanceTree } from './instance-tree.js';

const TASK_COPY = `${CHECKER_HOME}/variant-task`;
const OUT = `${CHECKER_HOME}/variant-out`;
const GENERATE_TIMEOUT_MS = 120_000;

export async function generateInstance(
  taskId: string,
  variants: GeneratedVariants<unknown>,
  seed: string,
  sandbox: Sandbox,
): Promise<InstanceTree> {
  const where = `${taskId}: generator ${variants.generator} (seed ${seed})`;
  try {
    await sandbox.exec(['rm', '-rf', TASK_COPY, OUT], { user: 'root', cwd: '/' });
    await copyIn(sandbox, variants.folderFiles(), where);
    const run = await sandbox.exec(
      ['sh', '-c', 'mkdir -m 700 "$2" && exec "./$1" "$3" "$2"', 'generate', variants.generator, OUT, seed],
      { user: 'checker', cwd: TASK_COPY, timeoutMs: GENERATE_TIMEOUT_MS, maxOutputBytes: 16 * 1024 },
    );
    if (run.timedOut) throw new UsageError(`${where}: ran past ${GENERATE_TIMEOUT_MS / 1000}s`);
    if (run.exitCode !== 0)
      throw new UsageError(`${where}: exited ${run.exitCode}: ${lastLine(run.stderr || run.stdout)}`);
    const tree = await readOut(sandbox, where);
    const problem = variants.treeProblem(tree);
    if (problem !== null) throw new UsageError(`${where}: ${problem}`);
    return tree;
  } finally {
    await sandbox.exec(['rm', '-rf', TASK_COPY, OUT], { user: 'root', cwd: '/' }).catch(() => {});
  }
}

/**
 * The folder, root's and read-only to the generator, file by file through stdin (putFiles extracts
 * at the root of the read-only file system, which cannot take the folders above the checker's home).
 */
async function copyIn(
  sandbox: Sandbox,
  files: readonly { path: string; content: Buffer; mode: number }[],
  where: string,
): Promise<void> {
  for (const f of files) {
    const r = await sandbox.exec(
      [
        'sh',
        '-c',
        'mkdir -p "$(dirname "$1")" && cat > "$1" && chmod "$2" "$1"',
        'copy',
        `${TASK_COPY}/${f.path}`,
        f.mode.toString(8),
      ],
      { user: 'root', cwd: '/', stdin: f.content },
    );
    if (r.exitCode !== 0)
      throw new InfraError(`${where}: copying ${f.path} in failed: ${lastLine(r.stderr)}`);
  }
}

/** OUTDIR's regular files; a link or any other special file is refused (an instance is text files). */
async function readOut(sandbox: Sandbox, where: string): Promise<InstanceTree> {
  const listing = await sandbox.exec(
    [
      'find',
      '.',
      '-mindepth',
      '1',
      '(',
      '-type',
      'f',
      '-printf',
      'f %m %P\\n',
      ')',
      '-o',
      '(',
      '!',
      '-type',
      'd',
      '-printf',
      'x %m %P\\n',
      ')',
    ],
    { user: 'root', cwd: OUT, maxOutputBytes: 1024 * 1024 },
  );
  if (listing.exitCode !== 0)
    throw new InfraError(`${where}: listing its output failed: ${lastLine(listing.stderr)}`);
  const entries = listing.stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const [kind, mode, ...rest] = l.split(' ');
      return { kind, mode: Number.parseInt(mode ?? '0', 8), rel: rest.join(' ') };
    });
  const special = entries.find((e) => e.kind !== 'f');
  if (special !== undefined)
    throw new UsageError(`${where}: wrote ${special.rel}, which is not a regular file`);
  const got = await sandbox.getFiles(entries.map((e) => `${OUT}/${e.rel}`));
  const tree = new Map<string, InstanceFile>();
  for (const e of entries) {
    const content = got.get(`${OUT}/${e.rel}`);
    if (content === undefined) throw new InfraError(`${where}: ${e.rel} could not be copied out`);
    tree.set(e.rel, { content, mode: (e.mode & 0o111) === 0 ? 0o644 : 0o755 });
  }
  return tree;
}

function lastLine(text: string): string {
  return text.trim().split('\n').at(-1)?.slice(0, 300) ?? '';
}
