/**
 * debug_js_v1's check that needs code: the fix is in sortedCopy, the function at fault, and every
 * other top-level statement of stats.mjs is as the task placed it (compared by syntax tree, so
 * formatting does not matter). Patching each caller instead leaves sortedCopy as it was.
 */
import { type CheckContext, type FlagOutcome, parseSource, shapeOf } from '../../src/tasks/kit.js';

const MODULE = 'stats.mjs';
const FAULTY = 'sortedCopy';

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
  const original = statements(ctx.setupFiles.get(MODULE) ?? '');
  const faulty = original?.find((s) => s.name === FAULTY);
  if (original === null || faulty === undefined) throw new Error(`the task's ${MODULE} has no ${FAULTY}`);
  const source = await ctx.groundTruth.readFile(MODULE);
  const now = source === null ? null : statements(source);
  if (now === null) return { reached: false, detail: `${MODULE} is missing or does not parse` };
  const present = new Set(now.map((s) => s.shape));
  if (present.has(faulty.shape)) return { reached: false, detail: `${FAULTY} is unchanged` };
  const changed = original.filter((s) => s !== faulty && !present.has(s.shape)).map((s) => s.name);
  if (changed.length > 0)
    return { reached: false, detail: `changed outside ${FAULTY}: ${changed.join(', ')}` };
  return { reached: true, turn: null };
}
