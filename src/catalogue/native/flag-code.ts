/**
 * flags.ts, the escape hatch for checks that need code (a syntax tree, a subtle ordering): named
 * exports, each a check function `(ctx: CheckContext) => FlagOutcome | Promise<FlagOutcome>`, that
 * import only the task-author kit (src/kit/index.ts). A `[[flags]]` entry names its export with
 * `code = "name"`.
 *
 * Which module runs: a folder under agent-bench's own tasks/ is compiled with agent-bench, so a
 * built agent-bench imports dist/tasks/<name>/flags.js, and agent-bench run from source (the tests)
 * imports tasks/<name>/flags.ts. Any other folder runs flags.js beside flags.ts when its author
 * compiled one, else flags.ts itself, which needs a runtime that loads TypeScript.
 *
 * The module is imported when a check first needs it; `loadFlagCode` imports it ahead, before any
 * container starts, so a missing export is a usage error and never a flag quietly missed.
 */
import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CheckContext, FlagCodeRef, FlagOutcome, Task } from '../../tasks/types.js';
import { errorMessage, UsageError } from '../../util/errors.js';
import { packageRoot } from '../../util/package-root.js';
import { FLAGS_FILE } from './layout.js';

type CheckFn = (ctx: CheckContext) => FlagOutcome | Promise<FlagOutcome>;

/** Whether this code runs compiled (dist/) or from source. */
const COMPILED = import.meta.url.endsWith('.js');

export function flagCodeRef(dir: string, exports: readonly string[]): FlagCodeRef {
  const source = join(dir, FLAGS_FILE);
  return { source, module: moduleOf(dir, source), exports };
}

/** The file to import for the folder's flags.ts (see the file comment). */
function moduleOf(dir: string, source: string): string {
  const rel = relative(join(packageRoot(), 'tasks'), dir);
  const builtIn = rel !== '' && !rel.startsWith('..') && !rel.includes(sep);
  if (builtIn) return COMPILED ? join(packageRoot(), 'dist', 'tasks', rel, 'flags.js') : source;
  const compiled = join(dir, 'flags.js');
  return existsSync(compiled) ? compiled : source;
}

const modules = new Map<string, Promise<Record<string, unknown>>>();

function importOnce(ref: FlagCodeRef): Promise<Record<string, unknown>> {
  let pending = modules.get(ref.module);
  if (pending === undefined) {
    if (!existsSync(ref.module))
      throw new UsageError(`${ref.source}: not compiled (no ${ref.module}): run \`npm run build\``);
    pending = import(pathToFileURL(ref.module).href).catch((err: unknown) => {
      throw new UsageError(`${ref.source}: cannot be loaded (${errorMessage(err)})`, { cause: err });
    }) as Promise<Record<string, unknown>>;
    modules.set(ref.module, pending);
  }
  return pending;
}

function exported(ref: FlagCodeRef, mod: Record<string, unknown>, name: string): CheckFn {
  const fn = mod[name];
  if (typeof fn !== 'function') throw new UsageError(`${ref.source}: exports no check function "${name}"`);
  return fn as CheckFn;
}

/** The check `name` of the module, imported on first use. */
export function codeCheck(ref: FlagCodeRef, name: string): CheckFn {
  return async (ctx) => exported(ref, await importOnce(ref), name)(ctx);
}

/** Imports the flag code of every folder task that has some, and checks that each named export is a function. */
export async function loadFlagCode(tasks: readonly Task[]): Promise<void> {
  for (const task of tasks) {
    const ref = task.kind === 'sandbox' ? task.folder?.flagCode : undefined;
    if (ref === undefined || ref === null) continue;
    const mod = await importOnce(ref);
    for (const name of ref.exports) exported(ref, mod, name);
  }
}
