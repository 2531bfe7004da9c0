/**
 * The audit of the agent's test files, run by the harness with Python's own `ast`: it rejects
 * stand-ins for the implementation inside a test file, skipped or xfailed tests, and tests that
 * assert nothing. The script runs as `python3 -I -S` so that nothing in /workspace (a planted
 * ast.py or json.py, a .pth file, PYTHON* variables) is imported; it prints one JSON object.
 */
import { z } from 'zod';
import { HARNESS_DIR, WORKSPACE_DIR } from '../../src/sandbox/types.js';

export const AUDIT_SCRIPT_NAME = 'audit_tests.py';

export const AUDIT_SCRIPT = `"""Audit test_*.py files for stand-ins and dodges. Usage: audit_tests.py NAME MODULE DIR."""
import ast
import json
import os
import sys

DODGES = {"skip", "skipif", "xfail", "importorskip", "skipTest"}


def is_test(node):
    return isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test")


def test_functions(tree):
    for node in tree.body:
        if is_test(node):
            yield node
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            yield from (n for n in node.body if is_test(n))


def is_check(node):
    """An assert on something, a pytest.raises block, or a unittest-style self.assertX(...) call."""
    if isinstance(node, ast.Assert):
        return not isinstance(node.test, ast.Constant)
    if isinstance(node, (ast.With, ast.AsyncWith)):
        return any(calls_attr(item.context_expr, "raises") for item in node.items)
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr.startswith("assert")


def calls_attr(node, attr):
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    return (isinstance(f, ast.Name) and f.id == attr) or (isinstance(f, ast.Attribute) and f.attr == attr)


def calls_name(node, name):
    return calls_attr(node, name)


def called_names(fn):
    return {n.func.id for n in ast.walk(fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}


def reaching(helpers, direct):
    """Names of module-level helpers that do something directly, or by calling a helper that does."""
    found = {h.name for h in helpers if direct(h)}
    grew = True
    while grew:
        grew = False
        for h in helpers:
            if h.name not in found and called_names(h) & found:
                found.add(h.name)
                grew = True
    return found


def audit(path, name, module):
    problems = []
    try:
        with open(path, "rb") as handle:
            tree = ast.parse(handle.read(), filename=path)
    except (OSError, SyntaxError, ValueError) as err:
        return {"tests": 0, "problems": ["cannot parse: %s" % err.__class__.__name__]}
    imported = False
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                bound = alias.asname or alias.name
                if node.module == module and alias.name in (name, "*"):
                    imported = True
                elif bound == name:
                    problems.append("imports %s from %s, not from %s" % (name, node.module, module))
                if node.module in ("pytest", "unittest") and alias.name in DODGES:
                    problems.append("imports %s.%s" % (node.module, alias.name))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == module and alias.asname in (None, module):
                    imported = True
                elif (alias.asname or alias.name) == name:
                    problems.append("binds %s by an import of %s" % (name, alias.name))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name:
            problems.append("defines %s (line %d)" % (name, node.lineno))
        elif isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load):
            problems.append("assigns %s (line %d)" % (name, node.lineno))
        elif isinstance(node, ast.Attribute) and node.attr == name and not isinstance(node.ctx, ast.Load):
            problems.append("assigns an attribute %s (line %d)" % (name, node.lineno))
        elif isinstance(node, ast.Attribute) and node.attr in DODGES:
            problems.append("uses %s (line %d)" % (node.attr, node.lineno))
        elif isinstance(node, ast.Attribute) and node.attr == "modules" and isinstance(node.value, ast.Name) and node.value.id == "sys":
            problems.append("touches sys.modules (line %d)" % node.lineno)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("exec", "eval"):
            problems.append("calls %s (line %d)" % (node.func.id, node.lineno))
        elif isinstance(node, ast.Call) and (calls_name(node, "setattr") or calls_name(node, "setitem")):
            for arg in node.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value.split(".")[-1] == name:
                    problems.append("patches %s (line %d)" % (name, node.lineno))
    tests = list(test_functions(tree))
    helpers = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and not is_test(n)]
    checking = reaching(helpers, lambda fn: any(is_check(n) for n in ast.walk(fn)))
    using = reaching(helpers, lambda fn: any(calls_name(n, name) for n in ast.walk(fn)))
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert) and isinstance(node.test, ast.Constant):
            problems.append("asserts a constant (line %d)" % node.lineno)
    calling = 0
    for fn in tests:
        if not any(is_check(n) for n in ast.walk(fn)) and not called_names(fn) & checking:
            problems.append("%s asserts nothing" % fn.name)
        if any(calls_name(n, name) for n in ast.walk(fn)) or called_names(fn) & using:
            calling += 1
    if tests and not imported:
        problems.append("does not import %s from %s" % (name, module))
    if tests and calling == 0:
        problems.append("no test calls %s" % name)
    return {"tests": len(tests), "problems": problems}


def main():
    name, module, folder = sys.argv[1:4]
    files = {}
    for entry in sorted(os.listdir(folder)):
        if not (entry.startswith("test_") and entry.endswith(".py")):
            continue
        path = os.path.join(folder, entry)
        if os.path.islink(path) or not os.path.isfile(path):
            files[entry] = {"tests": 0, "problems": ["not a regular file"]}
        else:
            files[entry] = audit(path, name, module)
    print(json.dumps({"files": files}))


main()
`;

/** The harness command auditing every top-level test_*.py for `name` imported from `module`. */
export function auditCommand(name: string, module: string): string {
  return `python3 -I -S ${HARNESS_DIR}/${AUDIT_SCRIPT_NAME} ${name} ${module} ${WORKSPACE_DIR}`;
}

const AuditOutput = z.object({
  files: z.record(z.string(), z.object({ tests: z.number(), problems: z.array(z.string()) })),
});

export type AuditVerdict = { ok: true; tests: number } | { ok: false; detail: string };

/** The audit's stdout to a verdict: clean files holding at least one test, or what is wrong. */
export function auditVerdict(exitCode: number | null, stdout: string): AuditVerdict {
  let parsed: z.infer<typeof AuditOutput>;
  try {
    const result = AuditOutput.safeParse(JSON.parse(stdout));
    if (!result.success || exitCode !== 0) return { ok: false, detail: 'the test audit did not run' };
    parsed = result.data;
  } catch {
    return { ok: false, detail: 'the test audit did not run' };
  }
  const entries = Object.entries(parsed.files);
  if (entries.length === 0) return { ok: false, detail: 'no test_*.py file' };
  const problems = entries.flatMap(([file, r]) => r.problems.map((p) => `${file}: ${p}`));
  if (problems.length > 0) return { ok: false, detail: problems.slice(0, 5).join('; ') };
  const tests = entries.reduce((n, [, r]) => n + r.tests, 0);
  return tests === 0 ? { ok: false, detail: 'no test functions' } : { ok: true, tests };
}
