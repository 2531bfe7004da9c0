/**
 * Legitimate typings in other styles than the reference, which `agent-bench validate` requires to
 * pass: heredoc and python3 editors, a sed -i fix after a red tsc, tsc run as `npx tsc`, with `-p`,
 * after cd, or piped.
 */
import type { Alternate } from '../../src/tasks/types.js';
import { answer, exec, read, write } from '../shared/script-steps.js';
import { TYPED_MODULE } from './fixture.js';
import { TYPED_OTHER_STYLE } from './variants.js';

const heredoc = (path: string, content: string) => `cat > ${path} <<'EOF'\n${content}EOF`;
const pythonWrite = (path: string, content: string) =>
  `python3 - <<'PY'\nimport pathlib\npathlib.Path(${JSON.stringify(path)}).write_text(r'''${content}''')\nPY`;

/** The reference with restock's amount left untyped: tsc reports an implicit any until sed types it. */
const AMOUNT_UNTYPED = TYPED_MODULE.replace('sku: string, amount: number)', () => 'sku: string, amount)');

export const tsTypingAlternates: Alternate[] = [
  {
    id: 'heredoc_other_style',
    description: 'cat -n to read, npx tsc, a heredoc writing generics, a type guard and an index signature.',
    script: [
      exec('cat -n inventory.ts'),
      exec('npx tsc --noEmit -p .'),
      exec(heredoc('inventory.ts', TYPED_OTHER_STYLE)),
      exec('npx tsc --noEmit -p .'),
      answer('inventory.ts is typed; qty is converted to a number.'),
    ],
  },
  {
    id: 'python_write_cd',
    description: 'A python3 script writes the typed module; tsc runs after cd with -p tsconfig.json.',
    script: [
      read('inventory.ts'),
      exec('cd /workspace && tsc -p tsconfig.json'),
      exec(pythonWrite('inventory.ts', TYPED_MODULE)),
      exec('cd /workspace && tsc -p tsconfig.json'),
      answer('Typed, and the qty bug fixed.'),
    ],
  },
  {
    id: 'sed_fix_after_red',
    description: 'One parameter left untyped, tsc red again, sed -i types it, tsc green.',
    script: [
      read('inventory.ts'),
      exec('tsc'),
      write('inventory.ts', AMOUNT_UNTYPED),
      exec('tsc'),
      exec("sed -i 's/sku: string, amount)/sku: string, amount: number)/' inventory.ts"),
      exec('tsc'),
      answer('Typed; restock amount is a number.'),
    ],
  },
  {
    id: 'piped_tsc',
    description: 'The reference, with tsc piped: `tsc 2>&1 | tail -20`.',
    // needs trace-based test observation: the pipe hides tsc's exit code from the command-text matcher.
    script: [
      read('inventory.ts'),
      exec('tsc 2>&1 | tail -20'),
      write('inventory.ts', TYPED_MODULE),
      exec('tsc 2>&1 | tail -20'),
      answer('inventory.ts is typed.'),
    ],
  },
];
