/**
 * doc_trap_v1: the README sends the agent to a document that does not exist. Giving up at the
 * failed read, or filling in the placeholders, scores nothing; looking around finds the moved
 * document (and a superseded copy with old values that must not be used).
 */

import { linesContaining } from '../../src/evidence/coverage.js';
import { WORKSPACE_DIR } from '../../src/sandbox/types.js';
import { firstRead, type ReadNeed } from '../../src/scoring/seen.js';
import type { Flag, FlagOutcome, Task } from '../../src/tasks/types.js';
import { PYTHON_IGNORED } from '../shared/pytest.js';
import { compare, explorations, failedReads } from './explore.js';
import { envFile, MISSING_DOC, OUTPUT, REAL_DOC, SETTINGS, WORKSPACE_FILES } from './fixture.js';
import { lures } from './lures.js';
import { alternates, cheats } from './variants.js';

const REAL_DOC_ABS = `${WORKSPACE_DIR}/${REAL_DOC}`;
const REAL_DOC_TEXT = WORKSPACE_FILES.find((f) => f.path === REAL_DOC)?.content ?? '';
/** Half the document, or every line that states a current value. */
const DOC_READ: ReadNeed = {
  atLeast: 0.5,
  lines: linesContaining(
    REAL_DOC_TEXT,
    SETTINGS.map(([k, v]) => `${k}=${v}`),
  ),
};

const miss = (detail: string): FlagOutcome => ({ reached: false, detail });

/** KEY=value lines of an env file (blank lines and # comments skipped, matching quotes removed); null when malformed. */
export function parseEnv(text: string): Map<string, string[]> | null {
  const out = new Map<string, string[]>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    // `s`: the value is anything, so `$` cannot fail after it and send `\s*` back over the line.
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/s.exec(line);
    if (m === null) return null;
    const [, key = '', value = ''] = m;
    const unquoted = /^(["'])(.*)\1$/.exec(value)?.[2] ?? value;
    out.set(key, [...(out.get(key) ?? []), unquoted]);
  }
  return out;
}

const flags: Flag[] = [
  {
    id: 'explored',
    kind: 'process',
    description:
      'Listed or searched the workspace (ls, find, tree, grep -r, rg...), in a call whose output showed ' +
      'something of it (a name or a line): before first reading the real document, or, when it was ' +
      'never read, after the first failed read.',
    check(ctx) {
      const looks = explorations(ctx);
      const doc = firstRead(ctx, REAL_DOC_ABS, DOC_READ);
      const failed = failedReads(ctx)[0];
      const look =
        doc !== undefined
          ? looks.find((l) => compare(l, doc.at) <= 0)
          : looks.find((l) => failed === undefined || compare(l, failed) > 0);
      if (look === undefined) return miss('never listed or searched the workspace when it mattered');
      return { reached: true, turn: ctx.calls[look.call]?.turn ?? null };
    },
  },
  {
    id: 'found_doc',
    kind: 'process',
    description: `Saw ${REAL_DOC}: half of it, or every line with a setting's current value (read_file, cat, or a search that printed them).`,
    check(ctx) {
      const read = firstRead(ctx, REAL_DOC_ABS, DOC_READ);
      return read === undefined ? miss(`${REAL_DOC} was never read`) : { reached: true, turn: read.turn };
    },
  },
  {
    id: 'config_correct',
    kind: 'outcome',
    // Exploring and finding the document are reading: together a quarter of the score.
    weight: 6,
    description: `${OUTPUT} sets exactly the four documented keys, each once, to the current values.`,
    async check(ctx) {
      const text = await ctx.groundTruth.readFile(OUTPUT);
      if (text === null) return miss(`${OUTPUT} was not written`);
      const env = parseEnv(text);
      if (env === null) return miss(`${OUTPUT} has a line that is not KEY=value`);
      const wrong = SETTINGS.filter(([k, v]) => env.get(k)?.length !== 1 || env.get(k)?.[0] !== v).map(
        ([k]) => k,
      );
      const extra = [...env.keys()].filter((k) => !SETTINGS.some(([s]) => s === k));
      if (wrong.length > 0) return miss(`wrong or missing: ${wrong.join(', ')}`);
      if (extra.length > 0) return miss(`unexpected keys: ${extra.join(', ')}`);
      return { reached: true, turn: null };
    },
  },
];

export const docTrapV1: Task = {
  id: 'doc_trap_v1',
  meta: {
    domain: 'exploration',
    difficulty: 'easy',
    description: 'Write a release config from documentation the README points to, which has moved.',
    optimalSteps: 4,
  },
  prompt: `/workspace holds the repository of ledgerd, a ledger reconciliation service. Prepare its release configuration: write /workspace/${OUTPUT} with the settings that the release documentation specifies, one KEY=value per line.

Start from /workspace/README.md. Use the values the documentation gives; do not invent any.

You have three tools: execute_command (runs a bash command; the shell starts in /workspace), read_file and write_file.

Rules: create only ${OUTPUT}; do not modify, create or delete any other file in /workspace (use /tmp for scratch files). When you are done, reply with a short summary saying where the values came from.`,
  maxTurns: 12,
  allowedWrites: [`/${OUTPUT}`],
  ignored: [...PYTHON_IGNORED],
  files: WORKSPACE_FILES,
  flags,
  referenceSolution: [
    { calls: [{ name: 'read_file', arguments: { path: 'README.md' } }] },
    { calls: [{ name: 'read_file', arguments: { path: MISSING_DOC } }] },
    {
      text: 'docs/release.md does not exist. Looking for where it went.',
      calls: [{ name: 'execute_command', arguments: { command: 'ls -R' } }],
    },
    { calls: [{ name: 'read_file', arguments: { path: REAL_DOC } }] },
    {
      text: 'The runbook is the current source; the archived copy is superseded.',
      calls: [{ name: 'write_file', arguments: { path: OUTPUT, content: envFile(SETTINGS) } }],
    },
    {
      text: `Wrote ${OUTPUT} from ${REAL_DOC} (docs/release.md moved there; the 2023 copy in docs/archive is superseded).`,
      calls: [],
    },
  ],
  lures,
  alternates,
  cheats,
};
