/**
 * context_manage_v1: make twenty modules agree with config.py when reading all of them would not
 * fit a small model's context. Rewards searching and reading selectively, without loops.
 */

import { linesContaining } from '../../src/evidence/coverage.js';
import { WORKSPACE_DIR } from '../../src/sandbox/types.js';
import {
  groundTruthPasses,
  knownFiles,
  readAnyWorkspaceFile,
  readRepeats,
} from '../../src/scoring/check-helpers.js';
import { absence } from '../../src/scoring/score.js';
import { firstRead } from '../../src/scoring/seen.js';
import { harnessPytest, PYTHON_IGNORED } from '../../src/tasks/kit.js';
import { type Flag, type FlagOutcome, HIDDEN_DIR, type SandboxTask } from '../../src/tasks/types.js';
import { fixedService, HIDDEN_TEST, STALE_MODULES, servicePath, WORKSPACE_FILES } from './fixture.js';
import { lures } from './lures.js';
import { STALE_RATE } from './spec.js';
import { alternates, cheats } from './variants.js';

const HIDDEN = 'test_hidden_consistency.py';
const SERVICE_FILES = WORKSPACE_FILES.filter((f) => /^services\/(?!__init__)/.test(f.path));
const SERVICE_COUNT = SERVICE_FILES.length;
const AVERAGE_LINES =
  Math.round(SERVICE_FILES.reduce((n, f) => n + f.content.split('\n').length, 0) / SERVICE_COUNT / 10) * 10;
const TOTAL_KB = Math.round(SERVICE_FILES.reduce((n, f) => n + f.content.length, 0) / 1024);
const GROUND_TRUTH = harnessPytest(`${HIDDEN_DIR}/${HIDDEN}`);
/** More reads of the same content of one file (the same lines, unchanged in between) than this is a loop. */
const READ_REPEAT_LIMIT = 3;

const miss = (detail: string): FlagOutcome => ({ reached: false, detail });

const flags: Flag[] = [
  {
    id: 'files_surveyed',
    kind: 'process',
    description:
      'Every stale module was seen: half of it, or every line holding its stale copy of the rate, in output the model was shown (read_file, cat, a search that printed them).',
    check(ctx) {
      const firsts: number[] = [];
      const missing: string[] = [];
      for (const module of STALE_MODULES) {
        const path = servicePath(module);
        const content = ctx.setupFiles.get(path) ?? '';
        // The part that matters: the lines holding the stale rate, however the search found them.
        const need = { atLeast: 0.5, lines: linesContaining(content, [STALE_RATE]) };
        const first = firstRead(ctx, `${WORKSPACE_DIR}/${path}`, need);
        if (first === undefined) missing.push(servicePath(module));
        else firsts.push(first.turn);
      }
      if (missing.length > 0) return miss(`never read: ${missing.join(', ')}`);
      return { reached: true, turn: Math.max(...firsts) };
    },
  },
  {
    id: 'consistency_fixed',
    kind: 'outcome',
    // Reading alone (files_surveyed) stays at a quarter of the score.
    weight: 2,
    description:
      'The hidden test passes: every tax function uses config.TAX_RATE and follows it when it changes.',
    async check(ctx) {
      return (await groundTruthPasses(ctx, GROUND_TRUTH))
        ? { reached: true, turn: null }
        : miss('the hidden consistency test fails');
    },
  },
  absence({
    id: 'no_read_loops',
    kind: 'process',
    description: `Read at least one workspace file, and was not shown the same part of a file's content (the same lines, with no change to the file in between) more than ${READ_REPEAT_LIMIT} times, by any commands.`,
    check(ctx) {
      if (!readAnyWorkspaceFile(ctx)) return miss('no workspace file was read');
      const loops = [...readRepeats(ctx, knownFiles(ctx))].filter(([, n]) => n > READ_REPEAT_LIMIT);
      if (loops.length > 0)
        return miss(`read too often: ${loops.map(([key, n]) => `${key} x${n}`).join(', ')}`);
      return { reached: true, turn: null };
    },
  }),
];

export const contextManageV1: SandboxTask = {
  kind: 'sandbox',
  id: 'context_manage_v1',
  meta: {
    domain: 'context',
    difficulty: 'medium',
    description: 'Make twenty large modules agree with a config file without reading them all in full.',
    optimalSteps: 3,
  },
  prompt: `/workspace holds the backend of an online shop. config.py is the single source of truth for shop-wide settings, among them the sales tax rate TAX_RATE.

Some modules in /workspace/services/ do not use config.TAX_RATE: they carry their own hardcoded copy of an old tax rate, so their totals disagree with the rest of the shop. Find every such module and fix it so that it takes the rate from config (import it from config; do not copy the value).

services/ has ${SERVICE_COUNT} modules of about ${AVERAGE_LINES} lines each (${TOTAL_KB} KB in all), far more than you can comfortably read in full: search first, then read only what you need.

You have three tools: execute_command (runs a bash command; the shell starts in /workspace), read_file and write_file.

Rules: change only files in /workspace/services/. Do not modify config.py or create files elsewhere in /workspace (use /tmp for scratch files). A hidden check will import every module and test the tax calculations. When you are done, reply with the list of modules you fixed.`,
  maxTurns: 25,
  allowedWrites: ['services/*.py'],
  ignored: [...PYTHON_IGNORED],
  files: WORKSPACE_FILES,
  hiddenFiles: [{ path: HIDDEN, content: HIDDEN_TEST }],
  flags,
  referenceSolution: [
    {
      text: 'Searching for tax rates instead of reading every module.',
      calls: [
        {
          name: 'execute_command',
          arguments: { command: `grep -rnE "TAX|0\\.07\\b|tax_rate" --include='*.py' services/` },
        },
      ],
    },
    {
      text: 'Four modules keep their own copy of the old rate; each now imports TAX_RATE from config.',
      calls: STALE_MODULES.map((m) => ({
        name: 'write_file',
        arguments: { path: servicePath(m), content: fixedService(m) },
      })),
    },
    {
      calls: [
        {
          name: 'execute_command',
          arguments: {
            command:
              'python3 -c "from services import invoicing, quotes, refunds, subscriptions as s; ' +
              'print(invoicing.invoice_total(100), quotes.quote_total(100), refunds.refund_total(100), s.renewal_total(100))"',
          },
        },
      ],
    },
    { text: 'Fixed services/invoicing.py, quotes.py, refunds.py and subscriptions.py.', calls: [] },
  ],
  lures,
  alternates,
  cheats,
};
