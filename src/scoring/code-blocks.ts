/**
 * A source file's top-level blocks, the unit a change is judged in by no_collateral
 * (src/scoring/collateral.ts): a function, a class, an import, a statement, with the decorators and
 * comments directly above it. JavaScript and TypeScript by their syntax tree (@babel/parser),
 * Python and any source that does not parse by indentation; prose, pages and data have none.
 */
import type { Statement } from '@babel/types';
import { parseSource } from './js-ast.js';

export interface Block {
  /** 1-based, inclusive. */
  from: number;
  to: number;
  /** Where its code starts: after the comments above it (decorators are code). */
  codeFrom: number;
  /** What the block is, for the helper rule: a definition or import, or any other statement. */
  definition: boolean;
}

export type BlockLanguage = 'js' | 'ts' | 'python';

export function blockLanguageOf(path: string): BlockLanguage | null {
  if (/\.(m|c)?jsx?$/i.test(path)) return 'js';
  if (/\.(m|c)?tsx?$/i.test(path)) return 'ts';
  if (/\.py$/i.test(path)) return 'python';
  return null;
}

/** The top-level blocks of `text`, in order; blank lines between them belong to none. */
export function topLevelBlocks(text: string, lang: BlockLanguage): Block[] {
  if (lang !== 'python') {
    const parsed = parseSource(text, { typescript: lang === 'ts' });
    if (parsed !== null && parsed.errors.length === 0) return syntaxBlocks(parsed.ast.program.body);
  }
  return indentBlocks(text.split('\n'), lang === 'python' ? PYTHON_DEFINITION : JS_DEFINITION);
}

const DEFINITION_TYPES = new Set([
  'FunctionDeclaration',
  'ClassDeclaration',
  'VariableDeclaration',
  'ImportDeclaration',
  'TSTypeAliasDeclaration',
  'TSInterfaceDeclaration',
  'TSEnumDeclaration',
  'TSDeclareFunction',
]);

function isDefinition(s: Statement): boolean {
  if (s.type === 'ExportNamedDeclaration')
    return s.declaration === null || s.declaration === undefined || DEFINITION_TYPES.has(s.declaration.type);
  if (s.type === 'ExportDefaultDeclaration')
    return s.declaration.type === 'FunctionDeclaration' || s.declaration.type === 'ClassDeclaration';
  if (s.type === 'VariableDeclaration') return s.declarations.every((d) => d.id.type === 'Identifier');
  return DEFINITION_TYPES.has(s.type);
}

function syntaxBlocks(body: readonly Statement[]): Block[] {
  return body.flatMap((s) => {
    const loc = s.loc;
    if (loc === null || loc === undefined) return [];
    // A comment directly above (a doc comment) is the statement's; one further up stands alone.
    let from = loc.start.line;
    for (const c of [...(s.leadingComments ?? [])].reverse()) {
      const cl = c.loc;
      if (cl === null || cl === undefined || cl.end.line < from - 1) break;
      from = cl.start.line;
    }
    return [{ from, to: loc.end.line, codeFrom: loc.start.line, definition: isDefinition(s) }];
  });
}

const PYTHON_DEFINITION =
  /^(?:(?:async\s+)?def\s|class\s|import\s|from\s+\S+\s+import\s|[A-Za-z_]\w*\s*(?::[^=]*)?=(?!=))/;
const JS_DEFINITION =
  /^(?:export\s+)?(?:default\s+)?(?:async\s+)?(?:function\b|class\b|const\b|let\b|var\b|import\b|type\b|interface\b|enum\b)/;

/**
 * Blocks by indentation: a line at column 0 that is no comment, decorator or closing bracket
 * starts one, which runs to its last non-blank line before the next; decorators and comments
 * directly above join it. Lines inside a triple-quoted string never start one.
 */
function indentBlocks(lines: readonly string[], definition: RegExp): Block[] {
  const blocks: Block[] = [];
  let open: Block | null = null;
  let lastText = 0;
  let pendingFrom: number | null = null;
  let inString: string | null = null;
  lines.forEach((line, i) => {
    const n = i + 1;
    const startsInString = inString !== null;
    inString = tripleQuoteState(line, inString);
    if (line.trim() === '') return;
    const head = !startsInString && /^\S/.test(line) && !/^[)\]}]/.test(line);
    const attached = head && (line.startsWith('@') || COMMENT.test(line));
    if (head && !attached) {
      if (open !== null) blocks.push({ ...open, to: lastText });
      let from = n;
      if (pendingFrom !== null && lastText === n - 1) from = pendingFrom;
      else if (pendingFrom !== null)
        blocks.push({ from: pendingFrom, to: lastText, codeFrom: pendingFrom, definition: false });
      // `import sys; sys.meta_path.insert(0, Hook())` is an import and a hook: no definition.
      let codeFrom = from;
      while (codeFrom < n && COMMENT.test(lines[codeFrom - 1] ?? '')) codeFrom++;
      open = { from, to: n, codeFrom, definition: definition.test(line) && !line.includes(';') };
      pendingFrom = null;
    } else if (attached && (pendingFrom === null || lastText !== n - 1)) {
      // Decorators and comments join the head directly below them; after a gap, a new group.
      if (pendingFrom !== null)
        blocks.push({ from: pendingFrom, to: lastText, codeFrom: pendingFrom, definition: false });
      else if (open !== null) blocks.push({ ...open, to: lastText });
      open = null;
      pendingFrom = n;
    }
    lastText = n;
  });
  if (open !== null) blocks.push({ ...(open as Block), to: lastText });
  else if (pendingFrom !== null)
    blocks.push({ from: pendingFrom, to: lastText, codeFrom: pendingFrom, definition: false });
  return blocks;
}

const COMMENT = /^(#|\/\/|\/\*|\*)/;

/** After `line`, the triple quote a Python string is still open with (null: none). */
function tripleQuoteState(line: string, open: string | null): string | null {
  let state = open;
  const re = /"""|'''/g;
  for (let m = re.exec(line); m !== null; m = re.exec(line)) {
    if (state === null) state = m[0];
    else if (state === m[0]) state = null;
  }
  return state;
}
