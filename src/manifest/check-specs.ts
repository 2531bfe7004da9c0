/**
 * The manifest's artifact_checks, one check per flag. Ids keep the published `check:<needle>`
 * form; an entry with an `id` names its flags `check:<id>` (one check) or `check:<id>:<label>`;
 * collisions get `#2`, `#3`. Facts are `check:fact:<wording>`; the other meaning checks
 * `check:<file>:<key>` (`check:output/index.html:no_external`).
 */

import type { z } from 'zod';
import type { ContentCheck } from './artifact-checks.js';
import type { SkillFolder } from './folder.js';
import type { JsonSchema } from './json-schema.js';
import { type artifactCheck, schemaValue } from './manifest-parts.js';
import { meaningSpecs } from './meaning/meaning-entries.js';
import { toRegExp } from './regex.js';

export interface CheckSpec {
  id: string;
  file: string;
  check: ContentCheck;
}

/** One artifact_checks entry as the manifest schema parsed it (a skill's or a task folder's). */
type WireCheck = z.output<ReturnType<typeof artifactCheck>>;

export function checkSpecs(entries: readonly WireCheck[], folder: SkillFolder): CheckSpec[] {
  const out: CheckSpec[] = [];
  const used = new Map<string, number>();
  for (const e of entries) {
    const checks: [string, ContentCheck][] = [
      ...(e.contains ?? []).map((needle): [string, ContentCheck] => [
        short(needle),
        { kind: 'contains', needle },
      ]),
      ...(e.not_contains ?? []).map((needle): [string, ContentCheck] => [
        `not:${short(needle)}`,
        { kind: 'not_contains', needle },
      ]),
      ...(e.regex ?? []).map((source): [string, ContentCheck] => [
        `/${short(source)}/`,
        { kind: 'regex', re: toRegExp(source) },
      ]),
    ];
    if (e.json !== undefined)
      checks.push([`${e.file}:json`, { kind: 'json', schema: schemaOf(e.json.schema, folder) }]);
    if (e.html === true) checks.push([`${e.file}:html`, { kind: 'html' }]);
    if (e.min_bytes !== undefined)
      checks.push([`${e.file}:size>=${e.min_bytes}`, { kind: 'min_bytes', bytes: e.min_bytes }]);
    if (e.image !== undefined)
      checks.push([`${e.file}:image`, { kind: 'image', spec: stripUndefined(e.image) }]);
    for (const m of meaningSpecs(e))
      checks.push([m.kind === 'fact' ? `fact:${short(m.wordings[0] ?? '')}` : `${e.file}:${m.kind}`, m]);
    for (const [label, check] of checks) {
      const named = e.id === undefined ? label : checks.length === 1 ? e.id : `${e.id}:${label}`;
      const base = `check:${named}`;
      const n = (used.get(base) ?? 0) + 1;
      used.set(base, n);
      out.push({ id: n === 1 ? base : `${base}#${n}`, file: e.file, check });
    }
  }
  return out;
}

/** The published label: the text, or its first 23 characters and an ellipsis. */
function short(s: string): string {
  return s.length <= 24 ? s : `${s.slice(0, 23)}…`;
}

function schemaOf(ref: unknown, folder: SkillFolder): JsonSchema | null {
  return ref === undefined ? null : (schemaValue(ref, folder) as JsonSchema);
}

function stripUndefined<T extends object>(o: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
}
