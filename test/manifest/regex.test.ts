/**
 * Manifest regexes run on RE2 (linear time): a pattern that would backtrack for ever in a
 * JavaScript RegExp loads and gives its answer at once, over a command trace, an artifact and a
 * schema's `pattern` alike, so no regex can leave a check undecided; what RE2 lacks is refused when
 * the manifest loads, with one line naming the field and the construct.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { evaluateFlags } from '../../src/agent/evaluate.js';
import { builtIn } from '../../src/catalogue/built-in.js';
import { groupRuns } from '../../src/manifest/command-match.js';
import { schemaProblem, validateJson } from '../../src/manifest/json-schema.js';
import { regexProblem, toRegExp } from '../../src/manifest/regex.js';
import type { Sandbox, SnapshotEntry } from '../../src/sandbox/types.js';
import { loadSkill } from '../../src/skills/load.js';
import { skillTask } from '../../src/skills/skill-task.js';
import { UsageError } from '../../src/util/errors.js';
import { removeSkillFolders, skillFolder } from '../skills/skill-folder.js';
import { traced } from '../skills/traced.js';

afterEach(removeSkillFolders);

// A backtracking engine splits the a's 2^n ways before it gives up; RE2 reads them once.
const CATASTROPHIC = ['^(a+)+$', '^(a|a)*$', '^(\\w+\\s?)*$', '(x+x+)+y'];
const TRIGGER = `${'a'.repeat(50_000)}!`;
const RETURNS = { timeout: 10_000 };

describe('the Python spellings of published manifests', () => {
  it('takes leading inline flags as flags, ignoring x, and named groups', () => {
    const re = toRegExp('(?ix)^report\\.sh');
    expect(re.flags).toBe('i');
    expect(re.test('REPORT.sh --title x')).toBe(true);
    expect(toRegExp('(?s)a.b').test('a\nb')).toBe(true);
    expect(toRegExp('a.b').test('a\nb')).toBe(false);
    expect(toRegExp('(?m)^b$').test('a\nb\nc')).toBe(true);
    expect(toRegExp('^b$').test('a\nb\nc')).toBe(false);
    expect(toRegExp('(?P<script>\\w+)\\.sh').test('run.sh')).toBe(true);
    expect(toRegExp('(?<script>\\w+)\\.sh').test('run.sh')).toBe(true);
  });

  it('is stateless: the same answer however often it is asked', () => {
    const re = toRegExp('x');
    expect([re.test('x'), re.test('x')]).toEqual([true, true]);
  });
});

describe('a pattern that backtracks in a JavaScript RegExp', () => {
  it('loads, and matches a long text that sets it off, with the right answer', RETURNS, () => {
    for (const source of CATASTROPHIC) {
      expect(regexProblem(source), source).toBeNull();
      expect(toRegExp(source).test(TRIGGER), source).toBe(false);
    }
    expect(toRegExp('^(a+)+$').test('a'.repeat(50_000))).toBe(true);
    expect(toRegExp('(x+x+)+y').test(`${'x'.repeat(50_000)}y`)).toBe(true);
  });

  it('loads every bundled skill', () => {
    expect(builtIn().skills.length).toBeGreaterThan(0);
  });

  it('decides an artifact check: the flag is missed, no error', RETURNS, async () => {
    const entry: SnapshotEntry = { kind: 'file', sha256: 'x', size: TRIGGER.length, mode: 0o644 };
    const dir = skillFolder(
      { 'SKILL.md': '# x\n' },
      { expected_artifacts: ['out.txt'], artifact_checks: [{ file: 'out.txt', regex: '^(a|a)*$' }] },
    );
    const task = skillTask(loadSkill(dir));
    const sandbox = {
      getFiles: async (paths: string[]) => new Map(paths.map((p) => [p, Buffer.from(TRIGGER)])),
    } as unknown as Sandbox;
    const judged = await evaluateFlags({
      task,
      sandbox,
      turnLogs: [],
      setupSnapshot: new Map(),
      changeTurns: new Map(),
      finalSnapshot: new Map([['out.txt', entry]]),
      finalAnswer: null,
    });
    const check = Object.entries(judged).find(([id]) => id.startsWith('check:'));
    expect(check?.[1]).toMatchObject({ reached: false, detail: '/^(a|a)*$/ does not match out.txt' });
  });

  it('decides a required command over the whole trace', RETURNS, () => {
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
    expect(groupRuns({ calls, declaredWrites: { allowed: ['**'], ignored: [] } }, group).runs).toEqual([]);
  });

  it("decides a schema's pattern on every value", RETURNS, () => {
    const schema = { type: 'array', items: { type: 'string', pattern: '^(a|a)*$' } };
    expect(validateJson(['a', 'aa'], schema)).toEqual([]);
    expect(validateJson(['a', TRIGGER], schema)).toEqual(['/1: must match pattern "^(a|a)*$"']);
    const keys = { type: 'object', patternProperties: { '^(a+)+$': { type: 'number' } } };
    expect(validateJson({ [TRIGGER]: 'x', aaa: 'x' }, keys)).toEqual(['/aaa: must be number']);
  });
});

describe('what RE2 lacks', () => {
  it('is refused by name, in one line', () => {
    const refused: [string, RegExp][] = [
      ['(a)\\1', /^backreference \\1 is not supported: patterns run on RE2, which has no backreferences/],
      ['(?<n>a)\\k<n>', /^backreference \\k<n> is not supported/],
      ['(?P<n>a)(?P=n)', /^backreference \(\?P=n\) is not supported/],
      ['a(?=b)', /^lookahead \(\?= is not supported: patterns run on RE2, which has no lookaround/],
      ['a(?!b)', /^negative lookahead \(\?! is not supported/],
      ['(?<=a)b', /^lookbehind \(\?<= is not supported/],
      ['(?<!a)b', /^negative lookbehind \(\?<! is not supported/],
      ['a{1001}', /^invalid regular expression: invalid repeat count: `\{1001\}`$/],
      ['(unclosed', /^invalid regular expression: missing closing \)/],
    ];
    for (const [source, reason] of refused) {
      expect(regexProblem(source), source).toMatch(reason);
      expect(regexProblem(source), source).not.toContain('\n');
    }
    // Only text: escaped, or inside a class.
    for (const source of ['\\(?=a\\)', '[(?<=]x', '\\\\1', '[\\1]?x'])
      expect(regexProblem(source) ?? '', source).not.toMatch(/not supported/);
  });

  it('in a manifest, in a schema file or inline: the load fails naming the field or the artifact', () => {
    const dir = skillFolder(
      { 'SKILL.md': '# x\n', '.bench/s.json': JSON.stringify({ type: 'string', pattern: '(?<!x)y' }) },
      {
        required_commands: ['run\\.sh (\\w+) \\1'],
        artifact_checks: [
          { file: 'out.txt', regex: '^(?=a)' },
          { file: 'out.json', json: { schema: '.bench/s.json' } },
        ],
      },
    );
    expect(() => loadSkill(dir)).toThrow(UsageError);
    expect(() => loadSkill(dir)).toThrow(/required_commands\[0\]: backreference \\1 is not supported/);
    expect(() => loadSkill(dir)).toThrow(/artifact_checks\[0\]\.regex: lookahead \(\?= is not supported/);
    expect(() => loadSkill(dir)).toThrow(
      /artifact_checks\[1\]\.json\.schema: the schema for out\.json does not compile: negative lookbehind \(\?<! is not supported/,
    );
    expect(schemaProblem({ type: 'string', pattern: '(a)\\1' })).toMatch(
      /^backreference \\1 is not supported/,
    );
  });
});
