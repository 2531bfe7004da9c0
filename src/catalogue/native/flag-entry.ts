/**
 * One `[[flags]]` entry of task.toml: the flag's id, kind, weight and description, and exactly one
 * check. The checks are the skill manifest's vocabulary (src/skills/manifest.ts) given a flag of
 * their own: a read (required_reads, with how much and when), a command (required_commands), the
 * commands' order (ordered_commands), an artifact and its content (expected_artifacts,
 * artifact_checks), a harness command (harness_checks); plus what tasks need beyond skills: a test
 * run the model saw fail or pass, the harness's own test run with the runner's verdict, a call of an
 * MCP server's tool that returned without error (`mcp_call`), and `code`,
 * a check function exported by the folder's flags.ts.
 */
import { z } from 'zod';
import type { SkillFolder } from '../../manifest/folder.js';
import { artifactCheck, Id, RelPath } from '../../manifest/manifest-parts.js';
import { regexProblem } from '../../manifest/regex.js';
import { FILES_DIR, HIDDEN_FILES_DIR } from './layout.js';

const Pattern = z
  .string()
  .min(1)
  .superRefine((s, ctx) => {
    const problem = regexProblem(s);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  });

const Paths = z.array(RelPath).min(1);

/** A file of the starting workspace: reads are matched against what the task placed there. */
function setupFile(folder: SkillFolder) {
  return RelPath.superRefine((p, ctx) => {
    if (!folder.files.has(`${FILES_DIR}/${p}`))
      ctx.addIssue({
        code: 'custom',
        message: `not a file of ${FILES_DIR}/ (reads are of the starting workspace)`,
      });
  });
}

function readCheck(folder: SkillFolder) {
  return z
    .strictObject({
      file: setupFile(folder),
      /** Fraction of the file's substantive lines (default 0.5). */
      at_least: z.number().gt(0).max(1).optional(),
      /** Or the block (by indentation) headed by the first line this matches, all of it. */
      block: Pattern.optional(),
      /** Or every line containing one of these texts. */
      lines_containing: z.array(z.string().min(1)).min(1).optional(),
      /** Only output shown before each of these files first changed counts. */
      before_first_change_of: Paths.optional(),
      /** With before_first_change_of: the flag is missed when none of them ever changed. */
      require_change: z.boolean().optional(),
    })
    .superRefine((r, ctx) => {
      if (r.block !== undefined && r.lines_containing !== undefined)
        ctx.addIssue({ code: 'custom', message: 'give at most one of block and lines_containing' });
      if (r.require_change === true && r.before_first_change_of === undefined)
        ctx.addIssue({ code: 'custom', path: ['require_change'], message: 'needs before_first_change_of' });
    });
}

const TestRunCheck = z
  .strictObject({
    runner: z.enum(['pytest', 'node:test', 'tsc']),
    /** fail: the runner's own exit code 1 (tsc: 1 or 2), and the model saw it fail; pass: 0, seen. */
    result: z.enum(['fail', 'pass']),
    /** Workspace files the run must have read (the task's tests, the module under test). */
    reads: z.array(RelPath).default([]),
    before_first_change_of: Paths.optional(),
    after_last_change_of: Paths.optional(),
  })
  .refine((t) => t.before_first_change_of === undefined || t.after_last_change_of === undefined, {
    message: 'give at most one of before_first_change_of and after_last_change_of',
  });

function harnessTests(folder: SkillFolder) {
  return z.strictObject({
    runner: z.enum(['pytest', 'node:test']),
    /** Test files to run: `hidden/<name>` is a hidden file, anything else a workspace path. */
    files: z.array(harnessTestFile(folder)).min(1),
    /** How many tests the runner's summary must count, all passed (default: at least one). */
    tests: z.int().min(1).optional(),
  });
}

function harnessTestFile(folder: SkillFolder) {
  return RelPath.superRefine((p, ctx) => {
    if (p.startsWith(`${HIDDEN_FILES_DIR}/`) && !folder.files.has(p))
      ctx.addIssue({ code: 'custom', message: 'file not found in task folder' });
  });
}

const HarnessCommand = z.strictObject({
  command: z.string().min(1),
  exit_code: z.int().min(0).max(255).default(0),
});

const CommandCheck = z.preprocess(
  (v) => (typeof v === 'string' ? { pattern: v } : v),
  z
    .strictObject({
      pattern: Pattern.optional(),
      any_of: z.array(Pattern).min(1).optional(),
      exit_code: z.int().min(0).max(255).optional(),
    })
    .refine((c) => (c.pattern === undefined) !== (c.any_of === undefined), {
      message: 'give exactly one of pattern and any_of',
    }),
);

/** An MCP server's tool the model called, with these arguments, and that returned without error. */
const McpCallCheck = z.strictObject({
  server: z.string().min(1),
  tool: z.string().min(1),
  /** Arguments the call must have had, each equal to the call's (it may have more). */
  args_match: z.record(z.string(), z.unknown()).optional(),
  before_first_change_of: Paths.optional(),
});

/**
 * No collateral change (src/scoring/collateral.ts): regions from the reference's write_file calls,
 * or from the final files a reference that edits by command leaves (`reference_files`: workspace
 * path → a file of the folder, or false for one it removes); `allow`: globs where any change is
 * allowed; `regions`: extra blocks the task allows changed, each headed by the first line matching.
 */
function collateralCheck(folder: SkillFolder) {
  return z.strictObject({
    allow: z.array(z.string().min(1)).default([]),
    regions: z.array(z.strictObject({ file: setupFile(folder), block: Pattern })).default([]),
    reference_files: z
      .record(
        RelPath,
        z.union([
          z.literal(false).transform(() => null),
          RelPath.superRefine((p, ctx) => {
            if (!folder.files.has(p))
              ctx.addIssue({ code: 'custom', message: 'file not found in task folder' });
          }),
        ]),
      )
      .default({}),
  });
}

/** The keys that each name a check; a flag has exactly one of them. */
const CHECK_KEYS = [
  'read',
  'test_run',
  'command',
  'commands_in_order',
  'artifact',
  'harness',
  'harness_tests',
  'mcp_call',
  'collateral',
  'code',
] as const;

export function flagEntry(folder: SkillFolder) {
  return z
    .strictObject({
      id: Id,
      kind: z.enum(['process', 'outcome']),
      description: z.string().min(1),
      weight: z.number().gt(0).max(1000).optional(),
      /** "Did not do X": credited only in a trial that reached an outcome (src/scoring/score.ts). */
      absence: z.boolean().optional(),
      /** Flags whose checks must hold too (e.g. the harness's test run behind a green run). */
      requires: z.array(Id).min(1).optional(),
      read: readCheck(folder).optional(),
      test_run: TestRunCheck.optional(),
      command: CommandCheck.optional(),
      commands_in_order: z.array(Id).min(2).optional(),
      artifact: artifactCheck(folder).optional(),
      harness: HarnessCommand.optional(),
      harness_tests: harnessTests(folder).optional(),
      mcp_call: McpCallCheck.optional(),
      collateral: collateralCheck(folder).optional(),
      /** The name of a check function that flags.ts exports. */
      code: z
        .string()
        .regex(/^[A-Za-z_$][A-Za-z0-9_$]*$/, 'must be the name of an export of flags.ts')
        .optional(),
    })
    .superRefine((f, ctx) => {
      const given = CHECK_KEYS.filter((k) => f[k] !== undefined);
      if (given.length !== 1)
        ctx.addIssue({
          code: 'custom',
          message:
            given.length === 0
              ? `needs a check: one of ${CHECK_KEYS.join(', ')}`
              : `has ${given.length} checks (${given.join(', ')}); give each its own flag`,
        });
    });
}

export type FlagEntry = z.output<ReturnType<typeof flagEntry>>;
