/** TypeScript checks a task asks of the compiler itself, over the final workspace. */
import { type AnyFinding, compilerAnys } from '../scoring/ts-anys.js';
import type { CheckContext } from '../tasks/types.js';

export type { AnyFinding } from '../scoring/ts-anys.js';

/**
 * The anys (src/scoring/ts-anys.ts) of `judged` in the final workspace, compiled with every
 * TypeScript file the workspace holds and `compilerOptions` (tsconfig's JSON form: the harness's own
 * settings, never the workspace's tsconfig, which the agent can change).
 */
export async function workspaceAnys(
  ctx: Pick<CheckContext, 'finalSnapshot' | 'groundTruth'>,
  judged: readonly string[],
  compilerOptions: Readonly<Record<string, unknown>>,
): Promise<AnyFinding[]> {
  const sources = new Map<string, string>();
  for (const [path, entry] of ctx.finalSnapshot) {
    if (entry.kind !== 'file' || !/\.(c|m)?tsx?$/.test(path)) continue;
    const text = await ctx.groundTruth.readFile(path);
    if (text !== null) sources.set(path, text);
  }
  return compilerAnys(sources, judged, compilerOptions);
}

/** A finding as a miss detail names it: `inventory.ts:34 return of tryParse ({ … }) holds any`. */
export function describeAny(finding: AnyFinding): string {
  const type = finding.type.length > 60 ? `${finding.type.slice(0, 59)}…` : finding.type;
  const where = finding.via === 'any' ? 'is any' : `holds ${finding.via}`;
  return `${finding.file}:${finding.line} ${finding.what} (${type}) ${where}`;
}
