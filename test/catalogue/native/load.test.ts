/**
 * A task folder read into a Task: what each part becomes, and every kind of broken manifest as one
 * line that names the file and the field.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadTaskFolder } from '../../../src/catalogue/native/load.js';
import { UsageError } from '../../../src/util/errors.js';
import {
  MINIMAL_FILES,
  MINIMAL_TOML,
  makeExecutable,
  removeTaskFolders,
  taskFolder,
} from '../../tasks/folder/task-folder.js';

afterEach(removeTaskFolders);

/** Loading must fail with a usage error; its lines. */
function refusal(dir: string): string[] {
  try {
    loadTaskFolder(dir);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message.split('\n');
  }
  throw new Error('the folder loaded');
}

const withToml = (toml: string, extra: Record<string, string> = {}) =>
  taskFolder({ ...MINIMAL_FILES, 'task.toml': toml, ...extra });

describe('a task folder', () => {
  it('becomes a task: the prompt, the workspace, hidden files, flags and resolved scripted runs', () => {
    const dir = taskFolder({
      ...MINIMAL_FILES,
      'files/bin/run.sh': '#!/bin/sh\n',
      'hidden/check.py': 'x = 1\n',
    });
    makeExecutable(join(dir, 'files/bin/run.sh'));
    const task = loadTaskFolder(dir);
    expect(task.id).toBe('sample_task_v1');
    expect(task.prompt).toBe('Write /workspace/out.txt. You have execute_command, read_file and write_file.');
    expect(task.files).toEqual([
      { path: 'bin/run.sh', content: '#!/bin/sh\n', mode: 0o755 },
      { path: 'notes.txt', content: 'one\ntwo\nthree\nfour\n' },
    ]);
    expect(task.hiddenFiles).toEqual([{ path: 'check.py', content: 'x = 1\n' }]);
    expect(task.flags.map((f) => [f.id, f.kind])).toEqual([
      ['read_notes', 'process'],
      ['wrote', 'outcome'],
    ]);
    expect(task.referenceSolution).toEqual([
      { text: 'Reading first.', calls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
      { calls: [{ name: 'write_file', arguments: { path: 'out.txt', content: 'done\n' } }] },
    ]);
    expect(task.lures?.[0]?.expect).toEqual({ unreached: ['read_notes'] });
    expect(task.meta).toEqual({
      domain: 'general',
      difficulty: 'medium',
      description: 'Write out.txt from notes.txt.',
      optimalSteps: 2,
    });
    expect(task.folder?.dir).toBe(dir);
    expect(task.folder?.flagCode).toBeNull();
    // No bound named: the checks get the default one.
    expect(task.checkTimeoutSec).toBeUndefined();
  });

  it("takes the bound on a check's own run from check_timeout_sec, and refuses one that is no positive whole number", () => {
    const task = loadTaskFolder(withToml(`check_timeout_sec = 30\n${MINIMAL_TOML}`));
    expect(task.checkTimeoutSec).toBe(30);
    expect(refusal(withToml(`check_timeout_sec = 0\n${MINIMAL_TOML}`)).join('\n')).toMatch(
      /check_timeout_sec/,
    );
    expect(refusal(withToml(`check_timeout_sec = 1.5\n${MINIMAL_TOML}`)).join('\n')).toMatch(
      /check_timeout_sec/,
    );
  });

  it('reads task.json with the same keys', () => {
    const json = JSON.stringify({
      max_turns: 3,
      allowed_writes: ['/out.txt'],
      meta: { description: 'd', heavy: true },
      flags: [{ id: 'wrote', kind: 'outcome', description: 'x', artifact: { file: 'out.txt' } }],
      reference_solution: [{ name: 'write_file', arguments: { path: 'out.txt', content: 'done' } }],
      lures: [{ id: 'nothing', description: 'd', expect: { unreached: ['wrote'] }, script: [] }],
    });
    const { 'task.toml': _, ...rest } = MINIMAL_FILES;
    const task = loadTaskFolder(taskFolder({ ...rest, 'task.json': json }));
    expect(task.maxTurns).toBe(3);
    expect(task.meta.heavy).toBe(true);
    expect(task.referenceSolution).toEqual([
      { calls: [{ name: 'write_file', arguments: { path: 'out.txt', content: 'done' } }] },
    ]);
  });

  it('an id that is no slug, given or taken from the folder name, is refused', () => {
    expect(refusal(taskFolder(MINIMAL_FILES, 'has space'))).toEqual([
      expect.stringMatching(/has space\/task\.toml: id: the folder's name "has space" is no task id/),
    ]);
    expect(refusal(withToml(`id = "../x"\n${MINIMAL_TOML}`))[0]).toMatch(
      /task\.toml: id: must be 1-64 letters/,
    );
  });
});

describe('a broken manifest is one line per problem, naming the file and the field', () => {
  it.each([
    [
      'an unknown key',
      MINIMAL_TOML.replace('read = {', 'reed = {'),
      /task\.toml: flags\[0\]\.reed: unknown key$/,
    ],
    [
      'a flag with no check',
      MINIMAL_TOML.replace('read = { file = "notes.txt" }', ''),
      /task\.toml: flags\[0\]: needs a check: one of read, test_run/,
    ],
    [
      'a flag with two checks',
      MINIMAL_TOML.replace('read = { file = "notes.txt" }', 'read = { file = "notes.txt" }\ncode = "x"'),
      /task\.toml: flags\[0\]: has 2 checks \(read, code\); give each its own flag$/,
    ],
    [
      'a read of a file the workspace does not have',
      MINIMAL_TOML.replace('file = "notes.txt"', 'file = "nope.txt"'),
      /task\.toml: flags\[0\]\.read\.file: not a file of files\//,
    ],
    [
      'a path out of the workspace',
      MINIMAL_TOML.replace('artifact = { file = "out.txt"', 'artifact = { file = "../out.txt"'),
      /task\.toml: flags\[1\]\.artifact\.file: must be a relative path inside its folder/,
    ],
    [
      'a wrong type',
      MINIMAL_TOML.replace('max_turns = 5', 'max_turns = "five"'),
      /task\.toml: max_turns: expected number, received string$/,
    ],
    [
      'a missing key',
      MINIMAL_TOML.replace('max_turns = 5\n', ''),
      /task\.toml: max_turns: expected number, received undefined$/,
    ],
    [
      'a lure naming no flag',
      MINIMAL_TOML.replace('unreached = ["read_notes"]', 'unreached = ["read_notez"]'),
      /task\.toml: lures\[0\]\.expect\.unreached\[0\]: no flag "read_notez"; the flags are read_notes, wrote$/,
    ],
    [
      'a $file that is not there',
      MINIMAL_TOML.replace('"solution/out.txt"', '"solution/gone.txt"'),
      /task\.toml: reference_solution\[1\]\.calls\[0\]\.arguments\.content\["\$file"\]: file not found in task folder$/,
    ],
    [
      'a requirement of no flag',
      MINIMAL_TOML.replace('artifact = {', 'requires = ["ghost"]\nartifact = {'),
      /task\.toml: flags\[1\]\.requires\[0\]: no flag "ghost"$/,
    ],
    [
      'a circle of requirements',
      MINIMAL_TOML.replace('read = {', 'requires = ["wrote"]\nread = {').replace(
        'artifact = {',
        'requires = ["read_notes"]\nartifact = {',
      ),
      /task\.toml: flags\[1\]\.requires\[0\]: "read_notes" requires this flag in turn$/,
    ],
    [
      'two flags with one id',
      MINIMAL_TOML.replace('id = "wrote"', 'id = "read_notes"').replace('["read_notes"]', '["read_notes"]'),
      /task\.toml: flags\[1\]\.id: another flag has the id "read_notes"$/,
    ],
    [
      'a code check without flags.ts',
      MINIMAL_TOML.replace('artifact = { file = "out.txt", contains = ["done"] }', 'code = "wrote"'),
      /task\.toml: flags\[1\]\.code: needs the folder's flags\.ts, which is missing$/,
    ],
    [
      'a regular expression that needs what RE2 lacks (a lookbehind)',
      MINIMAL_TOML.replace(
        'read = { file = "notes.txt" }',
        'read = { file = "notes.txt", block = "(?<=def )f" }',
      ),
      /task\.toml: flags\[0\]\.read\.block: lookbehind \(\?<= is not supported: patterns run on RE2, which has no lookaround/,
    ],
    [
      'TOML that does not parse',
      MINIMAL_TOML.replace('max_turns = 5', 'max_turns = = 5'),
      /task\.toml: line 1, column \d+: not valid TOML: /,
    ],
  ])('%s', (_what, toml, line) => {
    const lines = refusal(withToml(toml));
    expect(
      lines.some((l) => line.test(l)),
      lines.join('\n'),
    ).toBe(true);
    for (const l of lines) expect(l).toMatch(/\/sample_task_v1\/task\.toml: /);
  });

  it('every problem of the folder at once', () => {
    const toml = MINIMAL_TOML.replace('max_turns = 5', 'max_turns = 0').replace('read = {', 'reed = {');
    const lines = refusal(withToml(toml));
    expect(lines.map((l) => l.replace(/^.*\/task\.toml: /, ''))).toEqual([
      'max_turns: Too small: expected number to be >=1',
      'flags[0].reed: unknown key',
      'flags[0]: needs a check: one of read, test_run, command, commands_in_order, artifact, harness, harness_tests, mcp_call, collateral, code',
    ]);
  });

  it('a folder without its parts says which is missing', () => {
    const { 'instruction.md': _, ...noPrompt } = MINIMAL_FILES;
    expect(refusal(taskFolder(noPrompt))).toEqual([
      expect.stringMatching(/\/instruction\.md: not found in the task folder$/),
    ]);
    const { 'task.toml': __, ...noManifest } = MINIMAL_FILES;
    expect(refusal(taskFolder(noManifest))).toEqual([
      expect.stringMatching(/sample_task_v1: no task\.toml or task\.json: is this a task folder\?$/),
    ]);
    expect(refusal(taskFolder({ ...MINIMAL_FILES, 'task.json': '{}' }))).toEqual([
      expect.stringMatching(/sample_task_v1: both task\.toml and task\.json: keep one$/),
    ]);
  });

  it('a workspace file that is not text is refused, not decoded into something else', () => {
    const dir = taskFolder(MINIMAL_FILES);
    writeFileSync(join(dir, 'files/logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0x00]));
    expect(refusal(dir)).toEqual([expect.stringMatching(/\/files\/logo\.png: is not UTF-8 text/)]);
  });
});
