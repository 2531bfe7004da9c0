"""Audit test_*.py files for stand-ins and dodges. Usage: audit_tests.py NAME MODULE DIR."""
import ast
import json
import os
import sys

DODGES = {"skip", "skipif", "xfail", "importorskip", "skipTest"}
# Checks that call the function they are given: pytest.raises(E, fn, *args), self.assertRaises(E, fn).
RAISING = {"raises", "warns", "deprecated_call", "assertRaises", "assertRaisesRegex", "assertWarns", "assertWarnsRegex"}
LEAVES = (ast.Return, ast.Raise, ast.Continue, ast.Break)


def truth(node):
    """True or False when a condition's truthiness is fixed by the syntax (0, "", None, not 1, x and False); else None."""
    if isinstance(node, ast.Constant):
        return bool(node.value)
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return None if any(isinstance(e, ast.Starred) for e in node.elts) else bool(node.elts)
    if isinstance(node, ast.Dict):
        return None if None in node.keys else bool(node.keys)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        t = truth(node.operand)
        return None if t is None else not t
    if isinstance(node, ast.BoolOp):
        values = [truth(v) for v in node.values]
        fixed, other = (False, True) if isinstance(node.op, ast.And) else (True, False)
        if fixed in values:
            return fixed
        return other if all(v is other for v in values) else None
    if isinstance(node, ast.Compare) and isinstance(node.left, ast.Constant) and len(node.ops) == 1:
        right = node.comparators[0]
        if isinstance(right, ast.Constant) and isinstance(node.ops[0], (ast.Eq, ast.NotEq, ast.Is, ast.IsNot)):
            same = node.left.value == right.value and type(node.left.value) is type(right.value)
            return same if isinstance(node.ops[0], (ast.Eq, ast.Is)) else not same
    return None


def leaves(stmt):
    """The statement never reaches the next one: return, raise, break, continue, or an if whose live branches all do."""
    if isinstance(stmt, LEAVES):
        return True
    if isinstance(stmt, ast.If):
        t = truth(stmt.test)
        if t is True:
            return block_leaves(stmt.body)
        if t is False:
            return block_leaves(stmt.orelse)
        return block_leaves(stmt.body) and block_leaves(stmt.orelse)
    return False


def block_leaves(stmts):
    return any(leaves(s) for s in stmts)


def live_statements(stmts):
    """The statements of a block that can run: none after one that always leaves it."""
    for s in stmts:
        yield s
        if leaves(s):
            return


def live_nodes(node):
    """Every node of code that runs when node runs: dead branches, code after a return, nested defs left out."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n is not node:
            stack.extend(n.decorator_list)
            continue
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            stack.extend(n.decorator_list)
            stack.extend(live_statements(n.body))
            continue
        if isinstance(n, ast.If):
            t = truth(n.test)
            stack.append(n.test)
            if t is not False:
                stack.extend(live_statements(n.body))
            if t is not True:
                stack.extend(live_statements(n.orelse))
            continue
        if isinstance(n, ast.While):
            stack.append(n.test)
            if truth(n.test) is not False:
                stack.extend(live_statements(n.body))
            stack.extend(live_statements(n.orelse))
            continue
        if isinstance(n, ast.IfExp):
            t = truth(n.test)
            stack.append(n.test)
            if t is not False:
                stack.append(n.body)
            if t is not True:
                stack.append(n.orelse)
            continue
        if isinstance(n, ast.BoolOp):
            stop = False if isinstance(n.op, ast.And) else True
            for v in n.values:
                stack.append(v)
                if truth(v) is stop:
                    break
            continue
        for field, value in ast.iter_fields(n):
            if isinstance(value, list):
                if value and all(isinstance(v, ast.stmt) for v in value):
                    stack.extend(live_statements(value))
                else:
                    stack.extend(v for v in value if isinstance(v, ast.AST))
            elif isinstance(value, ast.AST):
                stack.append(value)


def reach(fn):
    """live_nodes of fn, and of the functions defined inside it that its live code calls."""
    nodes = list(live_nodes(fn))
    done = {fn}
    grew = True
    while grew:
        grew = False
        inner = {n.name: n for n in nodes if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n not in done}
        for callee in called(nodes) & set(inner):
            done.add(inner[callee])
            nodes.extend(live_nodes(inner[callee]))
            grew = True
    return nodes


def is_test(node):
    return isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test")


def definitions(stmts, dead, out):
    """Module-level (or class-level) defs with whether they sit in dead code, through if/try/with/for blocks."""
    live = set(map(id, live_statements(stmts)))
    for s in stmts:
        d = dead or id(s) not in live
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.append((s, d))
        elif isinstance(s, ast.If):
            t = truth(s.test)
            definitions(s.body, d or t is False, out)
            definitions(s.orelse, d or t is True, out)
        elif isinstance(s, ast.While):
            definitions(s.body, d or truth(s.test) is False, out)
            definitions(s.orelse, d, out)
        elif isinstance(s, (ast.For, ast.AsyncFor, ast.With, ast.AsyncWith)):
            definitions(s.body, d, out)
            definitions(getattr(s, "orelse", []), d, out)
        elif isinstance(s, ast.Try) or type(s).__name__ == "TryStar":
            definitions(s.body, d, out)
            for h in s.handlers:
                definitions(h.body, d, out)
            definitions(s.orelse, d, out)
            definitions(s.finalbody, d, out)
    return out


def test_functions(tree):
    """(test function, dead) for module-level tests and the tests of Test* classes."""
    for node, dead in definitions(tree.body, False, []):
        if is_test(node):
            yield node, dead
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            for m, d in definitions(node.body, dead, []):
                if is_test(m):
                    yield m, d


def attr_name(node):
    f = node.func if isinstance(node, ast.Call) else node
    if isinstance(f, ast.Name):
        return f.id
    return f.attr if isinstance(f, ast.Attribute) else None


def calls_attr(node, attr):
    return isinstance(node, ast.Call) and attr_name(node) == attr


def calls_name(node, name):
    return calls_attr(node, name)


def inert(node):
    """Literals only: a check of these cannot fail on the code."""
    return all(isinstance(n, (ast.Constant, ast.List, ast.Tuple, ast.Set, ast.Dict, ast.UnaryOp, ast.BinOp, ast.BoolOp, ast.Compare, ast.expr_context, ast.unaryop, ast.operator, ast.boolop, ast.cmpop)) for n in ast.walk(node))


def raising_call(node):
    """pytest.raises(E, fn, *args) or self.assertRaises(E, fn, ...): the check calls fn itself."""
    return isinstance(node, ast.Call) and attr_name(node) in RAISING and len(node.args) >= 2


def is_check(node):
    """An assert that can fail, a pytest.raises block or call, or a unittest-style self.assertX(...) call."""
    if isinstance(node, ast.Assert):
        return truth(node.test) is None and not inert(node.test)
    if isinstance(node, (ast.With, ast.AsyncWith)):
        return any(isinstance(item.context_expr, ast.Call) and attr_name(item.context_expr) in RAISING for item in node.items)
    if raising_call(node):
        return True
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr.startswith("assert"):
        return bool(node.args or node.keywords) and not all(inert(a) for a in node.args)
    return False


def called(nodes):
    """Names called in these nodes, or handed to a check that calls them (pytest.raises(E, fn))."""
    out = set()
    for n in nodes:
        if isinstance(n, ast.Call):
            f = n.func
            if isinstance(f, ast.Name):
                out.add(f.id)
            elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in ("self", "cls"):
                out.add(f.attr)
        if raising_call(n):
            f = n.args[1]
            if isinstance(f, ast.Name):
                out.add(f.id)
            elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in ("self", "cls"):
                out.add(f.attr)
    return out


def reaching(helpers, direct):
    """Names of helpers (module functions, methods) that do something in code that runs, directly or through a helper they call."""
    live = {h.name: reach(h) for h in helpers}
    found = {h.name for h in helpers if direct(live[h.name])}
    grew = True
    while grew:
        grew = False
        for h in helpers:
            if h.name not in found and called(live[h.name]) & found:
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
        elif isinstance(node, ast.Assert) and (truth(node.test) is not None or inert(node.test)):
            problems.append("asserts a constant (line %d)" % node.lineno)
    found = list(test_functions(tree))
    for fn, dead in found:
        if dead:
            problems.append("%s is in code that never runs (line %d)" % (fn.name, fn.lineno))
    tests = [fn for fn, dead in found if not dead]
    defs = definitions(tree.body, False, [])
    for cls, dead in list(defs):
        if isinstance(cls, ast.ClassDef):
            defs.extend(definitions(cls.body, dead, []))
    helpers = [n for n, _ in defs if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and not is_test(n)]
    checking = reaching(helpers, lambda nodes: any(is_check(n) for n in nodes))
    using = reaching(helpers, lambda nodes: name in called(nodes))
    calling = 0
    for fn in tests:
        nodes = reach(fn)
        if not any(is_check(n) for n in nodes) and not called(nodes) & checking:
            problems.append("%s asserts nothing that can fail, in code that runs" % fn.name)
        if name in called(nodes) or called(nodes) & using:
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
