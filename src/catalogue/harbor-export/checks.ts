/**
 * Which of a task folder's checks a Harbor verifier can run. Harbor's verifier sees only the
 * filesystem the agent left, never what ran or what the model was shown, so only outcome checks
 * over the final files go across: the harness's test runs (`harness_tests`, hidden tests
 * included), its commands (`harness`) and artifacts (`artifact`, the content checks a shell can
 * judge). Evidence of the process (reads, test runs seen before a change, the commands and their
 * order) and flags.ts checks (TypeScript over agent-bench's trace and ground truth) are left out,
 * each with its reason, for the export's README and docs/harbor.md.
 */
import type { FlagEntry } from '../native/flag-entry.js';
import { HIDDEN_FILES_DIR } from '../native/layout.js';

/** Where the export puts the task's hidden files: under tests/, which Harbor copies to /tests only to verify. */
const EXPORTED_HIDDEN_DIR = '/tests/hidden';

export type ExportedCheck =
  | {
      flag: string;
      kind: 'pytest' | 'node:test';
      /** Workspace-relative paths, or absolute ones under EXPORTED_HIDDEN_DIR. */
      targets: string[];
      /** How many tests the runner's summary must count, all passed (default: at least one). */
      tests?: number;
    }
  | { flag: string; kind: 'command'; command: string; exitCode: number }
  | {
      flag: string;
      kind: 'artifact';
      /** Workspace-relative. */
      file: string;
      contains: string[];
      notContains: string[];
      minBytes?: number;
    };

export interface LeftOut {
  flag: string;
  why: string;
}

export interface CheckExport {
  checks: ExportedCheck[];
  /** Flags not judged at all in Harbor, and parts of judged flags that are not (an artifact's regex). */
  leftOut: LeftOut[];
}

const EVIDENCE: Partial<Record<keyof FlagEntry, string>> = {
  read: 'a read',
  test_run: 'a test run the model saw',
  command: 'a command the agent ran',
  commands_in_order: 'the order of the commands the agent ran',
};

export function exportChecks(entries: readonly FlagEntry[]): CheckExport {
  const checks: ExportedCheck[] = [];
  const leftOut: LeftOut[] = [];
  for (const e of entries) {
    const out = exportedCheck(e);
    if ('why' in out) leftOut.push({ flag: e.id, why: out.why });
    else {
      checks.push(out.check);
      for (const why of out.partial) leftOut.push({ flag: e.id, why });
    }
  }
  const judged = new Set(checks.map((c) => c.flag));
  for (const e of entries)
    for (const r of judged.has(e.id) ? (e.requires ?? []) : [])
      if (!judged.has(r))
        leftOut.push({ flag: e.id, why: `its requirement ${r} is not judged in Harbor (see ${r})` });
  return { checks, leftOut };
}

function exportedCheck(e: FlagEntry): { check: ExportedCheck; partial: string[] } | { why: string } {
  for (const [key, what] of Object.entries(EVIDENCE))
    if (e[key as keyof FlagEntry] !== undefined)
      return {
        why: `${e.kind} flag judged on ${what} (\`${key}\`): evidence from the trace, which Harbor's verifier never sees`,
      };
  if (e.code !== undefined)
    return {
      why: `${e.kind} flag judged by flags.ts (\`${e.code}\`), TypeScript over agent-bench's trace and ground truth`,
    };
  if (e.harness_tests !== undefined) {
    const t = e.harness_tests;
    return {
      check: {
        flag: e.id,
        kind: t.runner,
        targets: t.files.map(exportedPath),
        ...(t.tests === undefined ? {} : { tests: t.tests }),
      },
      partial: [],
    };
  }
  if (e.harness !== undefined)
    return {
      check: { flag: e.id, kind: 'command', command: e.harness.command, exitCode: e.harness.exit_code },
      // agent-bench never credits a harness command to a trial with no valid tool call (didWork).
      partial: ['agent-bench credits it only to an agent that made a valid tool call; Harbor has no trace'],
    };
  if (e.artifact !== undefined) {
    const a = e.artifact;
    const unjudged = (
      [
        'regex',
        'json',
        'html',
        'image',
        'facts',
        'no_placeholders',
        'no_external',
        'not_copy_of',
        'derived_from',
      ] as const
    ).filter((k) => a[k] !== undefined);
    return {
      check: {
        flag: e.id,
        kind: 'artifact',
        file: a.file.replace(/^\/+/, ''),
        contains: a.contains ?? [],
        notContains: a.not_contains ?? [],
        ...(a.min_bytes === undefined ? {} : { minBytes: a.min_bytes }),
      },
      partial:
        unjudged.length === 0
          ? []
          : [
              `its ${unjudged.join(', ')} content checks are not exported (only presence, contains, not_contains, min_bytes)`,
            ],
    };
  }
  if (e.collateral !== undefined)
    return {
      why: `${e.kind} flag judged against the reference's own edits (\`collateral\`), line by line, by agent-bench's diff of the whole workspace, which the exported verifier does not carry`,
    };
  return { why: 'no check' };
}

/** `hidden/x` is the hidden file where the export places it; anything else stays workspace-relative. */
function exportedPath(path: string): string {
  return path.startsWith(`${HIDDEN_FILES_DIR}/`)
    ? `${EXPORTED_HIDDEN_DIR}/${path.slice(HIDDEN_FILES_DIR.length + 1)}`
    : path;
}
