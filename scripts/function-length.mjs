/**
 * `npm run lint`: no function in src/, tasks/ or bin/ runs over 80 lines but those named in
 * scripts/function-length-allow.json ("path#name" → why it is long). A procedure that long is several
 * named steps waiting to be named. An entry that matches no long function (split, renamed or deleted)
 * fails too, so the list only shrinks.
 *
 * A function is measured from its first line to its last, nested functions included (that is how long
 * it reads); each nested function is measured on its own as well. Run it from the project root.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const LIMIT = 80;
const ROOTS = ['src', 'tasks', 'bin'];
const ALLOW_FILE = 'scripts/function-length-allow.json';
/** A task's workspace, hidden tests and reference solutions are the agent's material, not this project's code. */
const TASK_MATERIAL = /^tasks\/[^/]+\/(files|hidden|solution)\//;

/** Project-relative paths (with /) of the TypeScript files, and of bin/'s Node scripts, which have no extension. */
function sourceFiles(root) {
  const files = [];
  for (const top of ROOTS) {
    if (!existsSync(join(root, top))) continue;
    for (const entry of readdirSync(join(root, top), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const path = join(entry.parentPath, entry.name)
        .slice(root.length + 1)
        .split('\\')
        .join('/');
      if (path.includes('node_modules/') || TASK_MATERIAL.test(path)) continue;
      if (/\.[cm]?ts$/.test(path) && !/\.d\.[cm]?ts$/.test(path))
        files.push({ path, kind: ts.ScriptKind.TS });
      else if (top === 'bin' && !entry.name.includes('.') && isNodeScript(join(root, path)))
        files.push({ path, kind: ts.ScriptKind.JS });
    }
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : 1));
}

const isNodeScript = (file) => /^#!.*\bnode\b/.test(readFileSync(file, 'utf8').split('\n', 1)[0] ?? '');

const isFunction = (node) =>
  (ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    ts.isConstructorDeclaration(node)) &&
  node.body !== undefined; // an overload signature or abstract method has no body to measure

/** Every function in one file: its name qualified by the classes and functions around it, line and length. */
function functionsIn(root, { path, kind }) {
  const source = ts.createSourceFile(
    path,
    readFileSync(join(root, path), 'utf8'),
    ts.ScriptTarget.Latest,
    true,
    kind,
  );
  const lineOf = (pos) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const found = [];
  const seen = new Map();
  const visit = (node, scope) => {
    let inner = scope;
    if (isFunction(node)) {
      const qualified = [...scope, ownName(node)].join('.');
      const nth = (seen.get(qualified) ?? 0) + 1;
      seen.set(qualified, nth);
      const name = nth === 1 ? qualified : `${qualified} (${nth})`;
      const line = lineOf(node.getStart(source));
      found.push({ path, name, line, lines: lineOf(node.getEnd()) - line + 1 });
      inner = [...scope, name];
    } else if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) {
      inner = [...scope, node.name?.text ?? boundName(node) ?? '(class)'];
    }
    ts.forEachChild(node, (child) => visit(child, inner));
  };
  visit(source, []);
  return found;
}

/** A getter and a setter may share a name. */
const ACCESSOR = { [ts.SyntaxKind.GetAccessor]: 'get ', [ts.SyntaxKind.SetAccessor]: 'set ' };

/** What the code calls a function: its own name, else the name it is bound to, else the call it is given to. */
function ownName(node) {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (ts.isFunctionExpression(node) || ts.isArrowFunction(node))
    return boundName(node) ?? node.name?.text ?? '(anonymous)';
  if (node.name === undefined) return 'default'; // export default function () {}
  return `${objectPrefix(node)}${ACCESSOR[node.kind] ?? ''}${nameText(node.name)}`;
}

function boundName(node) {
  let at = node;
  while (
    ts.isParenthesizedExpression(at.parent) ||
    ts.isAsExpression(at.parent) ||
    ts.isSatisfiesExpression(at.parent) ||
    ts.isNonNullExpression(at.parent)
  )
    at = at.parent;
  const parent = at.parent;
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isPropertyAssignment(parent)) return `${objectPrefix(parent)}${nameText(parent.name)}`;
  if (ts.isPropertyDeclaration(parent)) return nameText(parent.name);
  if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken)
    return parent.left.getText();
  if ((ts.isCallExpression(parent) || ts.isNewExpression(parent)) && parent.expression !== at)
    return `${calleeName(parent.expression)} callback`;
  if (ts.isExportAssignment(parent)) return 'default';
  return undefined;
}

/** `handlers.` for a member of `const handlers = { ... }`; nothing for an object that has no name. */
function objectPrefix(member) {
  const object = member.parent;
  if (!ts.isObjectLiteralExpression(object)) return '';
  const name = boundName(object);
  return name === undefined || name.endsWith(' callback') ? '' : `${name}.`;
}

const nameText = (name) =>
  ts.isIdentifier(name) ||
  ts.isPrivateIdentifier(name) ||
  ts.isStringLiteral(name) ||
  ts.isNumericLiteral(name)
    ? name.text
    : name.getText();

function calleeName(callee) {
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return 'call';
}

/** The allow-list, and what is wrong with it (a reason must say why the function is long). */
function readAllowList(root) {
  const file = join(root, ALLOW_FILE);
  if (!existsSync(file)) return { allowed: new Map(), problems: [] };
  let parsed;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return { allowed: new Map(), problems: [`${ALLOW_FILE}: not JSON: ${error.message}`] };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return { allowed: new Map(), problems: [`${ALLOW_FILE}: must map "path#name" to a reason`] };
  const allowed = new Map(Object.entries(parsed));
  const problems = [...allowed]
    .filter(([, reason]) => typeof reason !== 'string' || reason.trim() === '')
    .map(([key]) => `${ALLOW_FILE}: ${key} needs a one-line reason`);
  return { allowed, problems };
}

function check(root) {
  const files = sourceFiles(root);
  const long = files.flatMap((file) => functionsIn(root, file)).filter((fn) => fn.lines > LIMIT);
  const { allowed, problems } = readAllowList(root);
  const overKeys = new Set(long.map((fn) => `${fn.path}#${fn.name}`));
  for (const fn of long)
    if (!allowed.has(`${fn.path}#${fn.name}`))
      problems.push(`${fn.path}:${fn.line} ${fn.name} is ${fn.lines} lines (limit ${LIMIT})`);
  for (const key of allowed.keys())
    if (!overKeys.has(key))
      problems.push(`${ALLOW_FILE}: ${key} is not a function over ${LIMIT} lines (any more): remove it`);
  return { problems, files: files.length, allowed: allowed.size };
}

const { problems, files, allowed } = check(process.cwd());
if (problems.length > 0) {
  process.stdout.write(`${problems.join('\n')}\n`);
  process.exitCode = 1;
} else {
  process.stdout.write(
    `function-length: ${files} files, no function over ${LIMIT} lines but the ${allowed} allow-listed\n`,
  );
}
