/**
 * Scripted runs in a manifest (extensions): `reference_solution`, the skill's own oracle;
 * `alternates`, legitimate solutions in other styles, which must pass like it; `lures` and
 * `cheats`, failure runs and runs that game a flag, which must miss the flags they name. A script is a list whose items are tool calls (`{name, arguments}`, one turn each) or
 * turns (`{text?, calls: [...]}`). A string argument may be given as `{"$file": "path"}`: the text
 * of that file of the skill folder (e.g. `.bench/solution.html`, which the agent never sees).
 */
import { z } from 'zod';
import type { ScriptedTurn } from '../models/scripted.js';
import type { Lure } from '../tasks/types.js';
import type { SkillFolder } from './folder.js';
import { Id } from './manifest-parts.js';

function scriptedCall(folder: SkillFolder) {
  return z.strictObject({
    name: z.string().min(1),
    arguments: z.record(z.string(), z.unknown()).superRefine((args, ctx) => {
      for (const [key, value] of Object.entries(args)) {
        const file = fileRef(value);
        if (file !== null && !folder.files.has(file))
          ctx.addIssue({
            code: 'custom',
            path: [key, '$file'],
            message: `file not found in ${folder.noun} folder`,
          });
      }
    }),
  });
}

export function scriptedTurns(folder: SkillFolder) {
  const call = scriptedCall(folder);
  const turn = z.strictObject({ text: z.string().optional(), calls: z.array(call) });
  const item = z.preprocess(
    (v) => (typeof v === 'object' && v !== null && 'name' in v && !('calls' in v) ? { calls: [v] } : v),
    turn,
  );
  return z.array(item);
}

export function lure(folder: SkillFolder) {
  return z.strictObject({
    id: Id,
    description: z.string().min(1),
    script: scriptedTurns(folder),
    expect: z.strictObject({
      unreached: z.array(z.string().min(1)).min(1),
      // The flags the run must still reach: it is caught for what it names, not for a slip elsewhere.
      reached: z.array(z.string().min(1)).min(1).optional(),
      tamper: z.boolean().optional(),
    }),
  });
}

type LureExpect = z.infer<ReturnType<typeof lure>>['expect'];

/** A lure's or cheat's expectation as the task keeps it (absent fields left out). */
export function lureExpect(e: LureExpect): Lure['expect'] {
  return {
    unreached: e.unreached,
    ...(e.reached === undefined ? {} : { reached: e.reached }),
    ...(e.tamper === undefined ? {} : { tamper: e.tamper }),
  };
}

/**
 * Where lures' and cheats' expectations name flags that do not exist, or a flag both unreached and
 * reached: `at` is `lures[i].expect.unreached[j]` and the like.
 */
export function expectProblems(
  runs: readonly (readonly ['lures' | 'cheats', readonly { expect: LureExpect }[]])[],
  flagIds: readonly string[],
): { at: string; message: string }[] {
  const out: { at: string; message: string }[] = [];
  for (const [key, list] of runs)
    list.forEach((run, i) => {
      for (const field of ['unreached', 'reached'] as const)
        (run.expect[field] ?? []).forEach((id, j) => {
          const at = `${key}[${i}].expect.${field}[${j}]`;
          if (!flagIds.includes(id))
            out.push({ at, message: `no flag ${JSON.stringify(id)}; the flags are ${flagIds.join(', ')}` });
          else if (field === 'reached' && run.expect.unreached.includes(id))
            out.push({ at, message: `${JSON.stringify(id)} is both unreached and reached` });
        });
    });
  return out;
}

export function alternate(folder: SkillFolder) {
  return z.strictObject({ id: Id, description: z.string().min(1), script: scriptedTurns(folder) });
}

/** The path of a `{"$file": path}` argument, else null. */
function fileRef(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const keys = Object.keys(value);
  const file = (value as Record<string, unknown>).$file;
  return keys.length === 1 && typeof file === 'string' ? file : null;
}

/** The turns as the scripted model replays them, with each `{"$file": path}` argument read. */
export function resolveFiles(
  turns: readonly {
    text?: string | undefined;
    calls: { name: string; arguments: Record<string, unknown> }[];
  }[],
  folder: SkillFolder,
): ScriptedTurn[] {
  return turns.map((t) => ({
    ...(t.text === undefined ? {} : { text: t.text }),
    calls: t.calls.map((c) => ({
      name: c.name,
      arguments: Object.fromEntries(
        Object.entries(c.arguments).map(([k, v]) => {
          const file = fileRef(v);
          return [k, file === null ? v : folder.read(file).toString('utf8')];
        }),
      ),
    })),
  }));
}
