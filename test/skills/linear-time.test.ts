/**
 * The skill code's own regular expressions, scanners and parsers run on what the model wrote (an HTML page)
 * or what a manifest author wrote (the goal, the patterns), so each family gets ~100 KB built to
 * make a backtracking form rescan the rest from every position. They must return, with the right
 * answer; the forms they replaced took seconds to minutes here. The per-test timeout is no speed
 * target, only what turns such a regression into a failure.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { htmlProblem } from '../../src/manifest/html-check.js';
import { toRegExp } from '../../src/manifest/regex.js';
import { autoLures } from '../../src/skills/auto-lures.js';
import { loadSkill } from '../../src/skills/load.js';
import type { SkillSpec } from '../../src/skills/spec.js';
import { removeSkillFolders, skillFolder } from './skill-folder.js';

afterEach(removeSkillFolders);

const N = 100_000;
const RETURNS = { timeout: 10_000 };

describe('the HTML check (parse5) on an adversarial page', () => {
  const parseError = (at: string, code: string) => `line 1, column ${at}: ${code} (an HTML parse error)`;

  it('tags, comments and declarations that never close', RETURNS, () => {
    expect(htmlProblem('<a'.repeat(N / 2))).toBe(parseError(`${N + 1}`, 'eof-in-tag'));
    expect(htmlProblem(`<p>${'<a '.repeat(N / 3)}</p>`)).toBe(
      parseError('7', 'unexpected-character-in-attribute-name'),
    );
    const openings: [string, string][] = [
      ['<!--', parseError('12', 'nested-comment')],
      ['<![CDATA[', parseError('12', 'cdata-in-html-content')],
      ['<?', parseError('5', 'unexpected-question-mark-instead-of-tag-name')],
      ['<!', parseError('6', 'incorrectly-opened-comment')],
    ];
    for (const [opening, problem] of openings)
      expect(htmlProblem(`<b>${opening.repeat(N / opening.length)}</b>`), opening).toBe(problem);
  });

  it('quotes that never close, in tags that do or do not', RETURNS, () => {
    const quote = parseError('4', 'unexpected-character-in-attribute-name');
    expect(htmlProblem('<a "'.repeat(N / 4))).toBe(quote);
    expect(htmlProblem(`${'<a "'.repeat(N / 4)}>`)).toBe(quote);
    expect(htmlProblem(`<i>${`<a "'`.repeat(N / 5)}></i>`)).toBe(
      parseError('7', 'unexpected-character-in-attribute-name'),
    );
  });

  it('deep nesting, many end tags, one long line, raw text that never ends', RETURNS, () => {
    expect(htmlProblem(`${'<div>'.repeat(N / 10)}${'</div>'.repeat(N / 10)}`)).toBeNull();
    // Each <p> closes the one before; an end tag that closes nothing is ignored (see html-check.ts).
    expect(htmlProblem(`${'<p>'.repeat(N / 6)}${'</li>'.repeat(N / 10)}`)).toBeNull();
    expect(htmlProblem(`${'<b></b>\n'.repeat(N / 16)}<u>`)).toBe(`<u> of line ${N / 16 + 1} is never closed`);
    expect(htmlProblem('<script>'.repeat(N / 8))).toBe(
      parseError(`${N + 1}`, 'eof-in-element-that-can-contain-only-text'),
    );
  });
});

describe("the manifest author's text", () => {
  it('a goal with a long run of spaces loses its pointer to the skill, once', RETURNS, () => {
    const goal = `Make the report${' \t'.repeat(N / 2)}x, using the skill.`;
    const dir = skillFolder({ 'SKILL.md': '# x\n' }, { goal });
    expect(loadSkill(dir).spec.goalWithoutSkill).toBe(`Make the report${' \t'.repeat(N / 2)}x.`);
  });

  it("a long required pattern names the hallucinated step's tool", RETURNS, () => {
    const spec = { stubs: [], commands: [{ patterns: [toRegExp(`${'p'.repeat(N)}!`)] }] };
    expect(autoLures(spec as unknown as SkillSpec, [], [])[0]?.script[0]?.calls[0]?.name).toBe('run_skill');
    const named = { stubs: [], commands: [{ patterns: [toRegExp(`${'-'.repeat(N)}go\\.sh`)] }] };
    expect(autoLures(named as unknown as SkillSpec, [], [])[0]?.script[0]?.calls[0]?.name).toBe(
      `${'_'.repeat(N)}go`,
    );
  });
});
