/**
 * Legitimate refactors in other styles than the reference, which `agent-bench validate` requires to
 * pass: other editors (heredocs, a python3 script, sed -i), other test invocations, and the
 * extraction written other ways (an arrow exported by specifier, aliased, namespace and default
 * imports, concatenation, small helpers that are not copies).
 */
import type { Alternate } from '../../src/tasks/types.js';
import { answer, exec, read, together, write } from '../shared/script-steps.js';
import { INVOICE_REFACTORED, MONEY, REFUND_REFACTORED } from './fixture.js';
import {
  INVOICE_ALIASED,
  INVOICE_NAMESPACE,
  MONEY_ARROW_ALIAS,
  MONEY_WITH_DEFAULT,
  REFUND_ALIASED,
  REFUND_DEFAULT,
} from './variants.js';

const heredoc = (path: string, content: string) => `cat > ${path} <<'EOF'\n${content}EOF`;
/** A python3 script that writes the file (content in a raw string: nothing in it is escaped). */
const pythonWrite = (path: string, content: string) =>
  `python3 - <<'PY'\nimport pathlib\npathlib.Path(${JSON.stringify(path)}).write_text(r'''${content}''')\nPY`;

export const refactorExtractJsAlternates: Alternate[] = [
  {
    id: 'heredoc_arrow_alias',
    description:
      'cat to read, heredocs to write: an arrow exported as formatCents, aliased imports, concatenation; tests run after cd.',
    script: [
      exec('cat invoice.mjs refund.mjs'),
      exec('cd /workspace && node --test'),
      exec(
        [
          heredoc('money.mjs', MONEY_ARROW_ALIAS),
          heredoc('invoice.mjs', INVOICE_ALIASED),
          heredoc('refund.mjs', REFUND_ALIASED),
        ].join('\n'),
      ),
      exec('cd /workspace && node --test'),
      answer('formatCents (an arrow in money.mjs) now formats every amount.'),
    ],
  },
  {
    id: 'python_namespace_default',
    description:
      'A python3 script writes the modules: a namespace import with small helpers, a default-export object; tests named on the command line.',
    script: [
      together(read('invoice.mjs'), read('refund.mjs')),
      exec('node --test billing.test.mjs'),
      write('money.mjs', MONEY_WITH_DEFAULT),
      exec(`${pythonWrite('invoice.mjs', INVOICE_NAMESPACE)}\n${pythonWrite('refund.mjs', REFUND_DEFAULT)}`),
      exec('node --test --test-reporter=spec billing.test.mjs'),
      answer('money.mjs holds formatCents; both modules call it.'),
    ],
  },
  {
    id: 'sed_alias',
    description:
      'head and sed -n to read; the reference files, then sed -i to import formatCents under an alias.',
    script: [
      exec('head -n 40 invoice.mjs && sed -n 1,40p refund.mjs'),
      exec('node --test'),
      together(
        write('money.mjs', MONEY),
        write('invoice.mjs', INVOICE_REFACTORED),
        write('refund.mjs', REFUND_REFACTORED),
      ),
      exec(
        `sed -i -e 's/import { formatCents } from/import { formatCents as asMoney } from/' -e 's/formatCents(/asMoney(/g' invoice.mjs refund.mjs`,
      ),
      exec('node --test'),
      answer('Extracted formatCents; the modules import it as asMoney.'),
    ],
  },
  {
    id: 'piped_verify',
    description:
      'The reference refactor, checked with `node --test 2>&1 | tail -15` (the summary is all one needs).',
    // needs trace-based test observation: the pipe hides node's exit code from the command-text matcher.
    script: [
      together(read('invoice.mjs'), read('refund.mjs')),
      exec('node --test 2>&1 | tail -15'),
      together(
        write('money.mjs', MONEY),
        write('invoice.mjs', INVOICE_REFACTORED),
        write('refund.mjs', REFUND_REFACTORED),
      ),
      exec('node --test 2>&1 | tail -15'),
      answer('Done: formatCents in money.mjs, used by all three functions.'),
    ],
  },
];
