/**
 * Problems found in a skill folder, each with where it is (`stubs["scripts/x.sh"].outputs[0]`),
 * collected so that one error reports them all at once.
 */
import type { z } from 'zod';
import { UsageError } from '../util/errors.js';

export interface Problem {
  /** Where in the manifest (or which file of the folder); '' for the manifest as a whole. */
  at: string;
  message: string;
}

/** `['stubs', 'scripts/x.sh', 'outputs', 0]` -> `stubs["scripts/x.sh"].outputs[0]`. */
function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else {
      const key = String(part);
      if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) out += out === '' ? key : `.${key}`;
      else out += `[${JSON.stringify(key)}]`;
    }
  }
  return out;
}

/**
 * One problem per zod issue, at the place the user wrote: an unknown key at the key itself, a bad
 * record key with the key's own problem, and a plain string that the schema read as an object (a
 * required command, a stub output) at the string, not at a key the user never wrote.
 */
export function problemsFromIssues(issues: readonly z.core.$ZodIssue[], input: unknown): Problem[] {
  return issues.flatMap((issue): Problem[] => {
    const path = asWritten(issue.path, input);
    if (issue.code === 'unrecognized_keys')
      return issue.keys.map((key) => ({ at: formatPath([...path, key]), message: 'unknown key' }));
    const messages = issue.code === 'invalid_key' ? issue.issues.map((i) => i.message) : [issue.message];
    return messages.map((m) => ({ at: formatPath(path), message: m.replace(/^Invalid input: /, '') }));
  });
}

/**
 * The path as the input has it: cut where the input stops being an object, and without the steps
 * the schema added in between (a bare call read as `{calls: [call]}`); a missing last key stays.
 */
function asWritten(path: readonly PropertyKey[], input: unknown): PropertyKey[] {
  const out: PropertyKey[] = [];
  let at: unknown = input;
  path.forEach((part, i) => {
    if (typeof at !== 'object' || at === null) return;
    const o = at as Record<PropertyKey, unknown>;
    if (!(part in o) && i < path.length - 1) return;
    out.push(part);
    at = o[part];
  });
  return out;
}

function formatProblem(p: Problem): string {
  return p.at === '' ? p.message : `${p.at}: ${p.message}`;
}

/** A usage error (exit 2) listing every problem of the folder, one per line. */
export function skillUsageError(dir: string, problems: readonly Problem[]): UsageError {
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  const lines = problems.map((p) => `  ${formatProblem(p)}`);
  return new UsageError(`skill folder ${dir} has ${count}:\n${lines.join('\n')}`);
}
