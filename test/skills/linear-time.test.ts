/**
 * The skill code's own regular expressions and scanners run on what the model wrote (an HTML page)
 * or what a manifest author wrote (the goal, the patterns), so each family gets ~100 KB built to
 * make a backtracking form rescan the rest from every position. They must return, with the right
 * answer; the forms they replaced took seconds to minutes here. The per-test timeout is no speed
 * target, only what turns such a regression into a failure.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { autoLures } from '../../src/skills/auto-lures.js';
import { htmlProblem } from '../../src/skills/html-check.js';
import { loadSkill } from '../../src/skills/load.js';
import { toRegExp } from '../../src/skills/regex.js';
import type { SkillSpec } from '../../src/skills/spec.js';
import { removeSkillFolders, skillFolder } from './skill-folder.js';

afterEach(removeSkillFolders);

const N = 100_000;
const RETURNS = { timeout: 10_000 };

describe('the HTML check on an adversarial page', () => {
  it('tags, comments and declarations that never close', RETURNS, () => {
    expect(htmlProblem('<a'.repeat(N / 2))).toBe('no HTML elements');
    expect(htmlProblem(`<p>${'<a '.repeat(N / 3)}</p>`)).toBe('<a> of line 1 is never closed');
    // An unclosed `<!--` (or CDATA) is a `<!...>` declaration up to the next `>`: `</b>`'s, here.
    for (const opening of ['<!--', '<![CDATA[', '<?', '<!'])
      expect(htmlProblem(`<b>${opening.repeat(N / opening.length)}</b>`), opening).toBe(
        '<b> of line 1 is never closed',
      );
  });

  it('quotes that never close, in tags that do or do not', RETURNS, () => {
    expect(htmlProblem('<a "'.repeat(N / 4))).toBe('no HTML elements');
    expect(htmlProblem(`${'<a "'.repeat(N / 4)}>`)).toBe('<a> of line 1 is never closed');
    expect(htmlProblem(`<i>${`<a "'`.repeat(N / 5)}></i>`)).toBe(
      'line 1: </i> closes <a> of line 1, which was never closed',
    );
  });

  it('deep nesting, many end tags, one long line, raw text that never ends', RETURNS, () => {
    expect(htmlProblem(`${'<div>'.repeat(N / 10)}${'</div>'.repeat(N / 10)}`)).toBeNull();
    expect(htmlProblem(`${'<p>'.repeat(N / 6)}${'</li>'.repeat(N / 10)}`)).toBe(
      'line 1: </li> closes nothing',
    );
    expect(htmlProblem(`${'<b></b>\n'.repeat(N / 16)}<u>`)).toBe(`<u> of line ${N / 16 + 1} is never closed`);
    expect(htmlProblem('<script>'.repeat(N / 8))).toBe('line 1: <script> is never closed');
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
