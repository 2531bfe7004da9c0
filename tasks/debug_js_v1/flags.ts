/**
 * debug_js_v1's check that needs code: the fix is in the function at fault (the instance's
 * `faulty`, instance.json), and every other top-level statement of stats.mjs is as the task placed
 * it (compared by syntax tree, so formatting does not matter). Patching each caller instead leaves
 * the faulty function as it was.
 */
import { type CheckContext, type FlagOutcome, parseSource, shapeOf } from '../../src/kit/index.js';

const MODULE = 'stats.mjs';

/** Each top-level statement's shape, named by its function (or its line). */
function statements(source: string): { name: string; shape: string }[] | null {
  const parsed = parseSource(source, { typescript: false });
  if (parsed === null || parsed.errors.length > 0) return null;
  return parsed.ast.program.body.map((s) => {
    const decl = s.type === 'ExportNamedDeclaration' ? s.declaration : s;
    const name = decl?.type === 'FunctionDeclaration' ? (decl.id?.name ?? '?') : `line ${s.loc?.start.line}`;
    return { name, shape: shapeOf(s) };
  });
}

export async function fixInPlace(ctx: CheckContext): Promise<FlagOutcome> {
  const name = ctx.instance.faulty;
  if (typeof name !== 'string') throw new Error(`the task's instance.json names no faulty function`);
  const original = statements(ctx.setupFiles.get(MODULE) ?? '');
  const faulty = original?.find((s) => s.name === name);
  if (original === null || faulty === undefined) throw new Error(`the task's ${MODULE} has no ${name}`);
  const source = await ctx.groundTruth.readFile(MODULE);
  const now = source === null ? null : statements(source);
  if (now === null) return { reached: false, detail: `${MODULE} is missing or does not parse` };
  const present = new Set(now.map((s) => s.shape));
  if (present.has(faulty.shape)) return { reached: false, detail: `${name} is unchanged` };
  const changed = original.filter((s) => s !== faulty && !present.has(s.shape)).map((s) => s.name);
  if (changed.length > 0) return { reached: false, detail: `changed outside ${name}: ${changed.join(', ')}` };
  return { reached: true, turn: null };
}
