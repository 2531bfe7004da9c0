/**
 * "No `any`", asked of the TypeScript checker rather than of the syntax: every declared
 * parameter, every return and every exported binding of the judged files whose resolved type is or
 * contains `any`, however it got there — an explicit keyword, an alias (`ReturnType<typeof
 * JSON.parse>`), an inferred return, an untyped or unresolvable import (the compiler's error type is
 * an any), a generic whose constraint or default is any, or the global `Function` (calling one gives
 * any). The program is compiled in memory from the workspace's own sources and the compiler's
 * bundled lib files only: an import from anywhere else (/tmp, a home folder) does not resolve here,
 * so whatever it brought in counts as any.
 *
 * What is not the author's doing is left out: an unannotated callback parameter typed by a library
 * signature (`promise.catch((err) => …)`, a reviver's `value`) and the members of library types
 * (`Map`'s `thisArg?: any`); a library type's type arguments are still walked (`Map<string, any>`).
 */

import { readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import ts from 'typescript';

export interface AnyFinding {
  /** Workspace-relative file of the declaration. */
  file: string;
  line: number;
  /** What was judged: `parameter amount of restock`, `return of tryParse`, `export Loose`. */
  what: string;
  /** The declared type as the checker prints it. */
  type: string;
  /** Where inside it the any sits: `any`, `Function`, `the reason property: any`. */
  via: string;
}

const ROOT = '/workspace';
const LIB_DIR = dirname(ts.getDefaultLibFilePath({}));
/** Lib files parse once per process: they are the bulk of every program and never change. */
const libFiles = new Map<string, ts.SourceFile>();

/**
 * The anys of `judged` (workspace-relative paths) in a program of every TypeScript file of
 * `sources` (workspace-relative path -> text), compiled with `compilerOptions` (tsconfig JSON form).
 */
export function compilerAnys(
  sources: ReadonlyMap<string, string>,
  judged: readonly string[],
  compilerOptions: Readonly<Record<string, unknown>>,
): AnyFinding[] {
  const options = parseOptions(compilerOptions);
  const program = ts.createProgram({
    rootNames: [...sources.keys()].filter(isTypeScript).map((p) => `${ROOT}/${p}`),
    options,
    host: memoryHost(sources),
  });
  const judge = new Judge(program);
  for (const path of judged) {
    const file = program.getSourceFile(`${ROOT}/${path}`);
    if (file !== undefined) judge.file(file);
  }
  return judge.findings;
}

const isTypeScript = (path: string): boolean =>
  /\.(c|m)?tsx?$/.test(path) && !path.split('/').includes('node_modules');

function parseOptions(json: Readonly<Record<string, unknown>>): ts.CompilerOptions {
  const { options, errors } = ts.convertCompilerOptionsFromJson(json, ROOT);
  if (errors.length > 0)
    throw new Error(`compiler options: ${ts.flattenDiagnosticMessageText(errors[0]?.messageText, ' ')}`);
  // No emit, no @types lookup on the host: only the sources given and the bundled libs exist.
  return { ...options, noEmit: true, types: [], typeRoots: [] };
}

function memoryHost(sources: ReadonlyMap<string, string>): ts.CompilerHost {
  const text = (fileName: string): string | undefined => {
    if (fileName.startsWith(`${ROOT}/`)) return sources.get(fileName.slice(ROOT.length + 1));
    if (dirname(fileName) === LIB_DIR && /^lib\.[\w.]+\.d\.ts$/.test(basename(fileName)))
      return readFileSync(fileName, 'utf8');
    return undefined;
  };
  const directories = new Set([ROOT, LIB_DIR]);
  for (const path of sources.keys()) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) directories.add(`${ROOT}/${parts.slice(0, i).join('/')}`);
  }
  return {
    getSourceFile(fileName, languageVersion) {
      const isLib = dirname(fileName) === LIB_DIR;
      const key = `${fileName}\0${JSON.stringify(languageVersion)}`;
      const cached = isLib ? libFiles.get(key) : undefined;
      if (cached !== undefined) return cached;
      const content = text(fileName);
      if (content === undefined) return undefined;
      const file = ts.createSourceFile(fileName, content, languageVersion, true);
      if (isLib) libFiles.set(key, file);
      return file;
    },
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    writeFile: () => {},
    getCurrentDirectory: () => ROOT,
    getCanonicalFileName: (f) => f,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => '\n',
    fileExists: (f) => text(f) !== undefined,
    readFile: text,
    directoryExists: (d) => directories.has(d.replace(/\/$/, '')),
    getDirectories: () => [],
  };
}

/** How deep a type is walked for an any: deeper than any declaration a task judges needs. */
const MAX_DEPTH = 8;

class Judge {
  readonly findings: AnyFinding[] = [];
  private readonly program: ts.Program;
  private readonly checker: ts.TypeChecker;
  private readonly seenFindings = new Set<string>();

  constructor(program: ts.Program) {
    this.program = program;
    this.checker = program.getTypeChecker();
  }

  file(file: ts.SourceFile): void {
    const visit = (node: ts.Node): void => {
      if (ts.isTypeNode(node) && this.writtenAny(node)) return;
      if (isImplementedFunction(node)) this.function(node);
      ts.forEachChild(node, visit);
    };
    visit(file);
    const moduleSymbol = this.checker.getSymbolAtLocation(file);
    if (moduleSymbol === undefined) return;
    for (const exported of this.checker.getExportsOfModule(moduleSymbol)) this.exported(exported, file);
  }

  /**
   * A type written anywhere in the file (an annotation, a cast, a type argument, an alias's right
   * side) that resolves to any or to `Function`: `as any`, `as Loose` where Loose is
   * `ReturnType<typeof JSON.parse>` or an import that does not resolve. True when it counted, so
   * the parts of that type are not counted again.
   */
  private writtenAny(node: ts.TypeNode): boolean {
    const type = this.checker.getTypeFromTypeNode(node);
    const via = isAny(type) ? 'any' : this.isLibraryFunction(type) ? 'Function' : null;
    if (via === null) return false;
    const text = node.getText();
    this.add(node, `the type ${text.length > 40 ? `${text.slice(0, 39)}…` : text}`, type, via);
    return true;
  }

  private function(fn: ImplementedFunction): void {
    const name = functionName(fn);
    const contextual = this.contextualSignature(fn);
    for (const param of fn.parameters) {
      // A callback's unannotated parameter typed by a signature declared elsewhere: that
      // declaration is judged where it is (the workspace's) or is nobody's here (a library's).
      if (param.type === undefined && contextual !== null) continue;
      const label = ts.isIdentifier(param.name) ? param.name.text : param.name.getText();
      this.judge(param, `parameter ${label} of ${name}`, this.checker.getTypeAtLocation(param));
    }
    if (ts.isConstructorDeclaration(fn) || ts.isSetAccessorDeclaration(fn)) return;
    const signature = this.checker.getSignatureFromDeclaration(fn);
    if (signature === undefined) return;
    if (
      fn.type === undefined &&
      contextual !== null &&
      isAny(this.checker.getReturnTypeOfSignature(contextual))
    )
      return;
    this.judge(fn, `return of ${name}`, this.checker.getReturnTypeOfSignature(signature));
  }

  /** The signature a function expression is typed by from where it stands (an argument, an initialiser). */
  private contextualSignature(fn: ImplementedFunction): ts.Signature | null {
    if (!ts.isFunctionExpression(fn) && !ts.isArrowFunction(fn)) return null;
    const type = this.checker.getContextualType(fn);
    if (type === undefined || isAny(type)) return null;
    return (
      this.checker.getSignaturesOfType(this.checker.getNonNullableType(type), ts.SignatureKind.Call)[0] ??
      null
    );
  }

  private exported(symbol: ts.Symbol, file: ts.SourceFile): void {
    const target = symbol.flags & ts.SymbolFlags.Alias ? this.checker.getAliasedSymbol(symbol) : symbol;
    const declaration = target.declarations?.[0] ?? file;
    const what = `export ${symbol.getName()}`;
    if (target.flags & ts.SymbolFlags.Value)
      this.judge(declaration, what, this.checker.getTypeOfSymbolAtLocation(target, declaration));
    if (target.flags & (ts.SymbolFlags.Type & ~ts.SymbolFlags.Value))
      this.judge(declaration, what, this.checker.getDeclaredTypeOfSymbol(target));
  }

  private judge(node: ts.Node, what: string, type: ts.Type): void {
    const via = this.anyIn(type, new Set(), 0);
    if (via !== null) this.add(node, what, type, via);
  }

  private add(node: ts.Node, what: string, type: ts.Type, via: string): void {
    const file = node.getSourceFile();
    const line = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
    const key = `${file.fileName}:${line}:${what}`;
    if (this.seenFindings.has(key)) return;
    this.seenFindings.add(key);
    this.findings.push({
      file: file.fileName.slice(ROOT.length + 1),
      line,
      what,
      type: this.checker.typeToString(type),
      via,
    });
  }

  /** Where `type` is or holds an any; null when nowhere. */
  private anyIn(type: ts.Type, seen: Set<ts.Type>, depth: number): string | null {
    if (isAny(type)) return 'any';
    if (depth > MAX_DEPTH || seen.has(type)) return null;
    seen.add(type);
    const next = (t: ts.Type | undefined): string | null =>
      t === undefined ? null : this.anyIn(t, seen, depth + 1);
    for (const argument of type.aliasTypeArguments ?? []) {
      const found = next(argument);
      if (found !== null) return found;
    }
    if (type.isUnionOrIntersection()) return first(type.types, next);
    if (type.flags & ts.TypeFlags.TypeParameter) {
      const constraint = this.checker.getBaseConstraintOfType(type);
      return (
        next(constraint === type ? undefined : constraint) ?? next((type as ts.TypeParameter).getDefault())
      );
    }
    if (!(type.flags & ts.TypeFlags.Object)) return null;
    if (this.isLibraryFunction(type)) return 'Function';
    const reference = (type as ts.ObjectType).objectFlags & ts.ObjectFlags.Reference;
    if (reference) {
      const found = first(this.checker.getTypeArguments(type as ts.TypeReference), next);
      if (found !== null) return found;
    }
    if (this.isLibrary(type)) return null;
    return this.membersAny(type, next);
  }

  /** The members of a type declared in the workspace (or anonymous): properties, signatures, index signatures. */
  private membersAny(type: ts.Type, next: (t: ts.Type | undefined) => string | null): string | null {
    for (const property of this.checker.getPropertiesOfType(type)) {
      const found = next(this.checker.getTypeOfSymbol(property));
      if (found !== null) return `the ${property.getName()} property: ${found}`;
    }
    const signatures = [...type.getCallSignatures(), ...type.getConstructSignatures()];
    for (const signature of signatures) {
      for (const param of signature.getParameters()) {
        const found = next(this.checker.getTypeOfSymbol(param));
        if (found !== null) return `parameter ${param.getName()}: ${found}`;
      }
      const found = next(signature.getReturnType());
      if (found !== null) return `its return: ${found}`;
    }
    for (const info of this.checker.getIndexInfosOfType(type)) {
      const found = next(info.type);
      if (found !== null) return `an index signature: ${found}`;
    }
    return null;
  }

  /** The global `Function`: calling one gives any. */
  private isLibraryFunction(type: ts.Type): boolean {
    return type.getSymbol()?.getName() === 'Function' && this.isLibrary(type);
  }

  /** Declared only in the compiler's lib files: its members are the platform's, not the author's. */
  private isLibrary(type: ts.Type): boolean {
    const symbol = type.aliasSymbol ?? type.getSymbol();
    const declarations = symbol?.declarations ?? [];
    return (
      declarations.length > 0 &&
      declarations.every((d) => this.program.isSourceFileDefaultLibrary(d.getSourceFile()))
    );
  }
}

type ImplementedFunction =
  | ts.FunctionDeclaration
  | ts.MethodDeclaration
  | ts.FunctionExpression
  | ts.ArrowFunction
  | ts.ConstructorDeclaration
  | ts.GetAccessorDeclaration
  | ts.SetAccessorDeclaration;

function isImplementedFunction(node: ts.Node): node is ImplementedFunction {
  return (
    (ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isFunctionExpression(node) ||
      ts.isArrowFunction(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isGetAccessorDeclaration(node) ||
      ts.isSetAccessorDeclaration(node)) &&
    node.body !== undefined
  );
}

/** A function's name for a finding: its own, its variable's or property's, else its line's callee. */
function functionName(fn: ImplementedFunction): string {
  if (ts.isConstructorDeclaration(fn)) return 'the constructor';
  if (fn.name !== undefined) return fn.name.getText();
  const parent = fn.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.name !== undefined)
    return parent.name.getText();
  return 'a function expression';
}

const isAny = (type: ts.Type): boolean => (type.flags & ts.TypeFlags.Any) !== 0;

function first<T>(items: readonly T[], find: (item: T) => string | null): string | null {
  for (const item of items) {
    const found = find(item);
    if (found !== null) return found;
  }
  return null;
}
