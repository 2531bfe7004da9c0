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
export function formatPath(path: readonly PropertyKey[]): string {
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

/** One problem per zod issue; an unknown key is reported at the key itself. */
export function problemsFromIssues(issues: readonly z.core.$ZodIssue[], prefix: readonly PropertyKey[] = []): Problem[] {
  return issues.flatMap((issue): Problem[] => {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys')
      return issue.keys.map((key) => ({ at: formatPath([...path, key]), message: 'unknown key' }));
    return [{ at: formatPath(path), message: issue.message.replace(/^Invalid input: /, '') }];
  });
}

export function formatProblem(p: Problem): string {
  return p.at === '' ? p.message : `${p.at}: ${p.message}`;
}

/** A usage error (exit 2) listing every problem of the folder, one per line. */
export function skillUsageError(dir: string, problems: readonly Problem[]): UsageError {
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  const lines = problems.map((p) => `  ${formatProblem(p)}`);
  return new UsageError(`skill folder ${dir} has ${count}:\n${lines.join('\n')}`);
}
