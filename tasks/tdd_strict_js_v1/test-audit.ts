/**
 * What makes the agent's test file a real test suite, read off its syntax tree: it imports
 * parsePages from ./pages.mjs; every test(…)/it(…) both calls parsePages and asserts something
 * (directly or through a helper function of the file); nothing is skipped, focused or left to do.
 */
import {
  importedCallees,
  importsOf,
  parseSource,
  reachableCallees,
  testCases,
  testModifiers,
} from '../../src/scoring/js-ast.js';

const ASSERT_MODULES = new Set(['node:assert', 'assert', 'node:assert/strict', 'assert/strict']);
const isPagesModule = (source: string): boolean => /^(\.\/|\/workspace\/)pages\.mjs$/.test(source);

export type TestAudit = { ok: true; cases: number } | { ok: false; problem: string };

export function auditTestFile(source: string | null): TestAudit {
  const fail = (problem: string): TestAudit => ({ ok: false, problem });
  if (source === null) return fail('pages.test.mjs does not exist');
  const parsed = parseSource(source, { typescript: false });
  if (parsed === null || parsed.errors.length > 0) return fail('pages.test.mjs does not parse');
  const { ast } = parsed;
  for (const modifier of ['skip', 'only', 'todo'] as const) {
    const found = testModifiers(ast, modifier)[0];
    if (found !== undefined) return fail(`a test is marked ${modifier} (line ${found.loc?.start.line})`);
  }
  const subject = importedCallees(ast, isPagesModule, 'parsePages');
  if (subject.length === 0) return fail('parsePages is not imported from ./pages.mjs');
  const asserts = importsOf(ast)
    .filter((b) => ASSERT_MODULES.has(b.source))
    .map((b) => b.local);
  const cases = testCases(ast);
  if (cases.length === 0) return fail('no test(…) or it(…) with a callback');
  for (const c of cases) {
    const callees = [...reachableCallees(ast, c.body)];
    if (!callees.some((name) => subject.includes(name)))
      return fail(`the test at line ${c.line} never calls parsePages`);
    if (!callees.some((name) => asserts.some((a) => name === a || name.startsWith(`${a}.`))))
      return fail(`the test at line ${c.line} asserts nothing`);
  }
  return { ok: true, cases: cases.length };
}
