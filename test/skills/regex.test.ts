/**
 * Manifest regexes: the shape that backtracks exponentially is refused when the manifest loads,
 * and any other runaway pattern is interrupted at run time, which ends the trial as an error (the
 * harness could not decide a check), never as a flag the model missed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { evaluateFlags } from '../../src/agent/evaluate.js';
import { builtIn } from '../../src/catalogue/built-in.js';
import type { Sandbox, SnapshotEntry } from '../../src/sandbox/types.js';
import { groupRuns } from '../../src/skills/command-match.js';
import { schemaProblems, validateJson } from '../../src/skills/json-schema.js';
import { loadSkill } from '../../src/skills/load.js';
import { nestedQuantifierProblem, regexProblem, toRegExp } from '../../src/skills/regex.js';
import { skillTask } from '../../src/skills/skill-task.js';
import { RegexTimeoutError } from '../../src/util/bounded-regex.js';
import { UsageError } from '../../src/util/errors.js';
import { removeSkillFolders, skillFolder } from './skill-folder.js';
import { traced } from './traced.js';

afterEach(removeSkillFolders);

// No nested quantifier, so it loads; the two alternatives still split 30 a's 2^30 ways.
const RUNAWAY = '^(a|a)*$';
const TRIGGER = `${'a'.repeat(30)}b`;

describe('the static check for nested quantifiers', () => {
  it('refuses an unbounded repetition of a body that repeats without bound', () => {
    for (const source of [
      '(a+)+',
      '(\\s*\\w+)*',
      '(?:x|y+)+z',
      '((a)+b)*',
      '(a{1,}b)+',
      '(a+){2,}',
      '^(?:[\\w-]+/)*x',
    ])
      expect(nestedQuantifierProblem(source), source).toMatch(/^nested quantifier /);
    expect(nestedQuantifierProblem('x(\\s*\\w+)*y')).toBe(
      'nested quantifier (\\s*\\w+)*: a repeated group whose body also repeats can take exponential time on some texts; write it without the outer repetition',
    );
  });

  it('allows bounded outer repetitions, flat patterns, and quantifiers that are only text', () => {
    for (const source of [
      '(a+){3}',
      '(<tr[\\s>][\\s\\S]*?){13}',
      '(ab)+',
      'a+b+(c)*',
      '[(a+)]+',
      '\\(a+\\)+',
      '(a?)+',
      'summarize\\.py\\s+.*--data\\s+\\S*data/tickets\\.csv',
    ])
      expect(nestedQuantifierProblem(source), source).toBeNull();
  });

  it('loads every bundled skill', () => {
    expect(builtIn().skills.length).toBeGreaterThan(0);
  });

  it('refuses such a manifest pattern, and such a schema pattern, with one line each', () => {
    expect(regexProblem('(?i)(a+)+$')).toMatch(/^nested quantifier \(a\+\)\+: [^\n]+$/);
    expect(regexProblem('(unclosed')).toMatch(/^invalid regular expression: /);
    expect(schemaProblems({ type: 'string', pattern: '^(\\d+)*$' })).toEqual([
      expect.stringMatching(/^#\/pattern: nested quantifier \(\\d\+\)\*: /),
    ]);
    const dir = skillFolder(
      { 'SKILL.md': '# x\n' },
      {
        required_commands: ['(x+)+\\.sh'],
        artifact_checks: [{ file: 'out.txt', regex: '^(\\w+\\s?)*$' }],
      },
    );
    expect(() => loadSkill(dir)).toThrow(UsageError);
    expect(() => loadSkill(dir)).toThrow(/required_commands\[0\]: nested quantifier \(x\+\)\+/);
    expect(() => loadSkill(dir)).toThrow(/artifact_checks\[0\]\.regex: nested quantifier \(\\w\+\\s\?\)\*/);
  });
});

describe('a manifest regex that runs away at run time', () => {
  const entry: SnapshotEntry = { kind: 'file', sha256: 'x', size: TRIGGER.length, mode: 0o644 };

  it('ends the trial as an error naming the pattern, not as a missed check', async () => {
    const dir = skillFolder(
      { 'SKILL.md': '# x\n' },
      { expected_artifacts: ['out.txt'], artifact_checks: [{ file: 'out.txt', regex: RUNAWAY }] },
    );
    const task = skillTask(loadSkill(dir));
    const sandbox = {
      getFiles: async (paths: string[]) => new Map(paths.map((p) => [p, Buffer.from(TRIGGER)])),
    } as unknown as Sandbox;
    const judged = evaluateFlags({
      task,
      sandbox,
      turnLogs: [],
      setupSnapshot: new Map(),
      changeTurns: new Map(),
      finalSnapshot: new Map([['out.txt', entry]]),
      finalAnswer: null,
    });
    await expect(judged).rejects.toBeInstanceOf(RegexTimeoutError);
    await expect(judged).rejects.toThrow(`check regex timed out after 500 ms: ${RUNAWAY}`);
  });

  it('stops a required command pattern too, over the whole trace', () => {
    const calls = [
      traced('sh skill/a.sh', [{ argv: ['sh', '/workspace/skill/a.sh', TRIGGER] }]),
      traced('ls', [{ argv: ['ls'] }]),
    ].map((c, i) => ({ ...c, turn: i + 1 }));
    const group = {
      id: '0',
      patterns: [toRegExp('a\\.sh (a|a)*$')],
      exitCode: null,
      recheck: false,
      description: null,
    };
    expect(() => groupRuns({ calls }, group)).toThrow(RegexTimeoutError);
  });

  it('stops a schema pattern, compiled once and bounded on every value', () => {
    const schema = { type: 'array', items: { type: 'string', pattern: RUNAWAY } };
    expect(validateJson(['a', 'aa'], schema)).toEqual([]);
    expect(validateJson(['a', 'b'], schema)).toEqual(['$[1]: does not match ^(a|a)*$']);
    expect(() => validateJson(['a', TRIGGER], schema)).toThrow(RegexTimeoutError);
  });
});
