/**
 * long_procedure_v1: a seven-step data procedure with a multi-kilobyte report page to reproduce in
 * step 4. One flag per step, judged on its own, so where a run gave up shows in its score.
 */
import { WORKSPACE_DIR } from '../../src/sandbox/types.js';
import { firstChangeTurn } from '../../src/scoring/check-helpers.js';
import { beforeChange, changedBefore } from '../../src/scoring/ordering.js';
import { firstRead } from '../../src/scoring/seen.js';
import type { CheckContext, Flag, FlagOutcome, Task } from '../../src/tasks/types.js';
import { PYTHON_IGNORED } from '../shared/pytest.js';
import { STEP_CHECKS } from './checks.js';
import { DATA_CSV } from './data.js';
import { lures } from './lures.js';
import { STEP_CONTENTS } from './outputs.js';
import { PROCEDURE, STEP_FILES } from './procedure.js';
import { alternates, cheats } from './variants.js';

const miss = (detail: string): FlagOutcome => ({ reached: false, detail });

const STEP_IDS = [
  'step_1_delivered',
  'step_2_sorted',
  'step_3_top8',
  'step_4_report',
  'step_5_carriers',
  'step_6_totals',
  'step_7_manifest',
];
const STEP_SUMMARIES = [
  'the delivered rows, header first, in the original order',
  'the delivered rows sorted by cost, highest first',
  'the header and the eight most expensive delivered rows',
  'the template reproduced line for line (surrounding whitespace aside) with the placeholder replaced by the top-eight table',
  'one row per carrier with its delivered count and total cost, by name',
  'exactly the DELIVERED, TOP8_COST and TOP_CARRIER lines',
  'a JSON array of the six step files, in order, with their true sizes in bytes',
];

/** The step files that appeared, as indices with their first-change turn. */
function appeared(ctx: CheckContext): { index: number; turn: number }[] {
  return STEP_FILES.flatMap((path, index) => {
    const turn = firstChangeTurn(ctx, path);
    return turn === null ? [] : [{ index, turn }];
  });
}

async function sizes(ctx: CheckContext): Promise<Map<string, number | null>> {
  const out = new Map<string, number | null>();
  for (const path of STEP_FILES.slice(0, 6)) {
    const text = await ctx.groundTruth.readFile(path);
    out.set(path, text === null ? null : Buffer.byteLength(text));
  }
  return out;
}

const stepFlags: Flag[] = STEP_FILES.map((path, i) => ({
  id: STEP_IDS[i] ?? `step_${i + 1}`,
  kind: 'outcome',
  description: `Step ${i + 1}: ${path} holds ${STEP_SUMMARIES[i]}.`,
  async check(ctx) {
    const text = await ctx.groundTruth.readFile(path);
    if (text === null) return miss(`${path} was not written`);
    const stepCheck = STEP_CHECKS[i];
    if (stepCheck === undefined) return miss(`no check for step ${i + 1}`);
    const problem = stepCheck(text, i === 6 ? await sizes(ctx) : new Map());
    return problem === null ? { reached: true, turn: null } : miss(problem);
  },
}));

const flags: Flag[] = [
  {
    id: 'procedure_read',
    kind: 'process',
    description:
      'Saw at least half of PROCEDURE.md (read_file, or any command that showed it) before the first output file appeared.',
    check(ctx) {
      const outputs = appeared(ctx);
      if (outputs.length === 0) return miss('no step file was written');
      const read = firstRead(ctx, `${WORKSPACE_DIR}/PROCEDURE.md`, { atLeast: 0.5 }, (at) =>
        outputs.every((o) => beforeChange(ctx, at, STEP_FILES[o.index] ?? '', o.turn)),
      );
      return read === undefined
        ? miss('PROCEDURE.md was not read before the work started')
        : { reached: true, turn: read.turn };
    },
  },
  ...stepFlags,
  {
    id: 'order_kept',
    kind: 'process',
    description:
      'At least two step files appeared, each step only after all earlier ones: no gaps, and no file before its predecessor.',
    check(ctx) {
      const outputs = appeared(ctx);
      if (outputs.length < 2) return miss('fewer than two step files were written');
      const gap = outputs.findIndex((o, k) => o.index !== k);
      if (gap >= 0) return miss(`step ${gap + 1} was skipped`);
      const early = outputs.find((o, k) => {
        const prev = outputs[k - 1];
        const path = (n: number) => STEP_FILES[n] ?? '';
        return (
          prev !== undefined &&
          changedBefore(
            ctx,
            { path: path(o.index), turn: o.turn },
            { path: path(prev.index), turn: prev.turn },
          )
        );
      });
      if (early !== undefined) return miss(`step ${early.index + 1} appeared before step ${early.index}`);
      return { reached: true, turn: outputs.at(-1)?.turn ?? null };
    },
  },
];

const write = (i: number) => ({
  name: 'write_file',
  arguments: { path: STEP_FILES[i] ?? '', content: STEP_CONTENTS[i] ?? '' },
});

export const longProcedureV1: Task = {
  id: 'long_procedure_v1',
  meta: {
    domain: 'procedure',
    difficulty: 'hard',
    description:
      'Follow a seven-step data procedure to the end, through a multi-kilobyte report page in step 4.',
    optimalSteps: 5,
    heavy: true,
  },
  prompt: `/workspace/PROCEDURE.md describes how to produce the monthly shipments report from /workspace/data/shipments.csv. It has seven steps; each one writes one file under /workspace/output/.

Read the procedure and carry out all seven steps, in order. The work is done only when all seven files exist and are right; stopping early leaves the report incomplete.

You have three tools: execute_command (runs a bash command; the shell starts in /workspace), read_file and write_file.

Rules: write only under /workspace/output/ (use /tmp for scratch files and helper scripts); do not modify PROCEDURE.md or data/. When you are done, reply with a short summary of the seven files.`,
  maxTurns: 30,
  allowedWrites: ['output/**'],
  ignored: [...PYTHON_IGNORED],
  files: [
    { path: 'PROCEDURE.md', content: PROCEDURE },
    { path: 'data/shipments.csv', content: DATA_CSV },
  ],
  flags,
  referenceSolution: [
    {
      calls: [
        { name: 'read_file', arguments: { path: 'PROCEDURE.md' } },
        { name: 'read_file', arguments: { path: 'data/shipments.csv' } },
      ],
    },
    { text: 'Steps 1 to 3: filter, sort, top eight.', calls: [write(0), write(1), write(2)] },
    { text: 'Step 4: the template with the table in place of the placeholder.', calls: [write(3)] },
    { text: 'Steps 5 and 6: carrier summary and totals.', calls: [write(4), write(5)] },
    {
      text: 'Step 7: the manifest, then a look at the sizes.',
      calls: [write(6), { name: 'execute_command', arguments: { command: 'wc -c output/*' } }],
    },
    { text: 'All seven step files are in output/.', calls: [] },
  ],
  lures,
  alternates,
  cheats,
};
