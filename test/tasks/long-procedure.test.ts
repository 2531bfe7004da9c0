import { describe, expect, it } from 'vitest';
import { scoreTrial } from '../../src/scoring/score.js';
import { detectTamper } from '../../src/scoring/snapshot-diff.js';
import { readFile, shell, writeFile } from '../scoring/call-fixtures.js';
import { type CraftedCall, craftTrial, evaluate, reachedTurns } from './crafted-trial.js';
import {
  judgeStep,
  PLACEHOLDER,
  PROCEDURE,
  STEP_FILES,
  stepContent,
  TABLE,
  TEMPLATE,
  task,
} from './long-procedure-steps.js';

const reached = (turns: readonly (readonly CraftedCall[])[]) =>
  reachedTurns(task, craftTrial(task, turns, () => false).ctx);

const content = stepContent;
const write = (i: number, text = content(i)) => writeFile(STEP_FILES[i] ?? '', text);
const readProcedure = readFile('PROCEDURE.md');
/** The step's check on a variant of its right content: null when it passes. */
const judge = judgeStep;
/** The top eight rows of the reference report's table. */
const TOP8_ROWS = TABLE.split('\n').filter((l) => l.startsWith('<tr><td>'));

describe('long_procedure_v1 step checks', () => {
  it('the procedure reads whole even through cat, and step 4 is a multi-kilobyte write', async () => {
    expect(PROCEDURE.length).toBeLessThan(7500);
    expect(content(3).length).toBeGreaterThan(3000);
    expect(TEMPLATE).toContain(PLACEHOLDER);
    expect(PROCEDURE).toContain(TEMPLATE);
  });

  it('every reference file passes its own step and no other', async () => {
    for (let i = 0; i < 7; i++) {
      expect(await judge(i, content(i))).toBeNull();
      expect(await judge(i, content((i + 1) % 7))).not.toBeNull();
    }
  });

  it('CSV steps: line endings and trailing space are free; rows, order and columns are not', async () => {
    expect(await judge(0, content(0).replaceAll('\n', ' \r\n'))).toBeNull();
    const rows = content(0).trimEnd().split('\n');
    expect(await judge(0, rows.slice(0, -1).join('\n'))).toMatch(/data rows/);
    expect(await judge(0, [...rows, 'S004,Elm,Gdansk,1706,612,in_transit'].join('\n'))).not.toBeNull();
    expect(await judge(0, rows.map((r) => r.split(',').reverse().join(',')).join('\n'))).not.toBeNull();
    const [header = '', ...data] = content(1).trimEnd().split('\n');
    expect(await judge(1, [header, ...data.reverse()].join('\n'))).not.toBeNull();
    expect(await judge(2, `${content(2)}${content(1).trimEnd().split('\n')[9]}\n`)).not.toBeNull();
    expect(
      await judge(
        4,
        content(4).replace(/,(\d+)\n/, (_m, n: string) => `,${Number(n) + 1}\n`),
      ),
    ).not.toBeNull();
  });

  it("step 1: delivered rows lighter than the instance's threshold are left out", async () => {
    expect(PROCEDURE).toContain('weight_kg is at least 200 ');
    const rows = content(0).trimEnd().split('\n');
    const heavy = rows.filter((r, i) => i === 0 || Number(r.split(',')[3]) >= 300);
    expect(heavy.length).toBeLessThan(rows.length);
    // The folder's threshold (200 kg) leaves no delivered row out; 300 kg leaves out the lighter ones.
    expect(await judge(0, content(0), { min_weight: 300 })).toMatch(/data rows/);
    expect(await judge(0, `${heavy.join('\n')}\n`, { min_weight: 300 })).toBeNull();
    expect(await judge(0, `${heavy.join('\n')}\n`)).not.toBeNull();
  });

  it('step 4: the template line for line, the table in the slot', async () => {
    const indented = content(3)
      .split('\n')
      .map((l) => `    ${l}`)
      .join('\n');
    expect(await judge(3, indented)).toBeNull();
    const sectioned = TABLE.replace('<tr><th>', '<thead><tr><th>').replace(
      '</th></tr>',
      '</th></tr></thead><tbody>',
    );
    expect(
      await judge(3, TEMPLATE.replace(PLACEHOLDER, sectioned.replace('</table>', '</tbody></table>'))),
    ).toBeNull();
    expect(await judge(3, content(3).replace('Template revision TPL-3', 'Template revision TPL-4'))).toMatch(
      /template line/,
    );
    expect(await judge(3, content(3).replace('<h2>Glossary</h2>\n', ''))).not.toBeNull();
    expect(await judge(3, TEMPLATE)).not.toBeNull();
    const [first = '', second = ''] = TOP8_ROWS;
    expect(
      await judge(3, content(3).replace(first, 'X').replace(second, first).replace('X', second)),
    ).toMatch(/top eight/);
    expect(await judge(3, content(3).replace('</table>', '</table>\n<p>Table above.</p>'))).toMatch(
      /one table/,
    );
    expect(await judge(3, content(3).slice(0, content(3).indexOf('</table>') + 8))).not.toBeNull();
  });

  it('step 6: exactly the three lines, in order', async () => {
    const [a = '', b = '', c = ''] = content(5).trimEnd().split('\n');
    expect(await judge(5, `${b}\n${a}\n${c}\n`)).not.toBeNull();
    expect(await judge(5, `${content(5)}NOTE=ok\n`)).not.toBeNull();
    expect(await judge(5, `${a}\n${b}\nTOP_CARRIER=Birch\n`)).not.toBeNull();
  });

  it('step 7: six entries, in order, with exactly step, file and the true size', async () => {
    const entries = JSON.parse(content(6)) as { step: number; file: string; bytes: number }[];
    expect(await judge(6, JSON.stringify(entries))).toBeNull();
    expect(await judge(6, JSON.stringify([...entries].reverse()))).not.toBeNull();
    expect(
      await judge(6, JSON.stringify(entries.map((e, i) => (i === 2 ? { ...e, bytes: e.bytes + 1 } : e)))),
    ).toMatch(/bytes/);
    expect(await judge(6, JSON.stringify(entries.map((e) => ({ ...e, lines: 1 }))))).toMatch(/keys/);
    expect(
      await judge(6, JSON.stringify(Object.fromEntries(entries.map((e) => [e.file, e])))),
    ).not.toBeNull();
    expect(await judge(6, JSON.stringify(entries.slice(0, 5)))).not.toBeNull();
    expect(await judge(6, 'output/step1_delivered.csv')).toBe('not JSON');
  });
});

describe('long_procedure_v1 flags', () => {
  const allSteps = [0, 1, 2, 3, 4, 5, 6].map((i) => write(i));

  it('reading the procedure and writing the seven files in order reaches every flag', async () => {
    expect(await reached([[readProcedure], allSteps.slice(0, 3), allSteps.slice(3)])).toEqual({
      procedure_read: 1,
      step_1_delivered: 'post',
      step_2_sorted: 'post',
      step_3_top8: 'post',
      step_4_report: 'post',
      step_5_carriers: 'post',
      step_6_totals: 'post',
      step_7_manifest: 'post',
      order_kept: 3,
    });
  });

  it('doing nothing scores 0, and reading alone earns nothing', async () => {
    const idle = craftTrial(task, [], () => true);
    expect(scoreTrial(task.flags, await evaluate(task, idle.ctx), false).score).toBe(0);
    const readOnly = craftTrial(task, [[readProcedure]], () => true);
    expect(scoreTrial(task.flags, await evaluate(task, readOnly.ctx), false).score).toBe(0);
  });

  it('the point of abandonment is a score gradient', async () => {
    const scores: number[] = [];
    for (let k = 0; k <= 7; k++) {
      const t = craftTrial(task, [[readProcedure], ...allSteps.slice(0, k).map((c) => [c])], () => true);
      scores.push(scoreTrial(task.flags, await evaluate(task, t.ctx), false).score);
    }
    for (let k = 1; k <= 7; k++) expect(scores[k]).toBeGreaterThan(scores[k - 1] ?? 1);
    expect(scores[0]).toBe(0);
    expect(scores[3]).toBeCloseTo(5 / 9);
    expect(scores[7]).toBe(1);
  });

  it('procedure_read: before the first output, by a command naming it too', async () => {
    expect((await reached([[write(0)], [readProcedure], [write(1)]])).procedure_read).toBe(false);
    expect((await reached([[shell('sed -n 1,60p PROCEDURE.md')], [write(0)]])).procedure_read).toBe(1);
    expect((await reached([[readProcedure], [write(0)]])).procedure_read).toBe(1);
    // Read and written in one reply: the output was decided before the procedure was seen.
    expect((await reached([[readProcedure, write(0)]])).procedure_read).toBe(false);
    expect((await reached([[write(0), readProcedure]])).procedure_read).toBe(false);
  });

  it('order_kept: no gaps, no step before its predecessor, at least two steps', async () => {
    expect((await reached([[write(0)]])).order_kept).toBe(false);
    expect((await reached([[write(1), write(0)]])).order_kept).toBe(false);
    expect((await reached([[write(0)], [write(2)]])).order_kept).toBe(false);
    expect((await reached([[write(0)], [write(1)], [write(3)]])).order_kept).toBe(false);
    const script = {
      call: shell('python3 /tmp/steps.py'),
      effects: { write: Object.fromEntries(STEP_FILES.slice(0, 3).map((f, i) => [f, content(i)])) },
    };
    expect((await reached([[script]])).order_kept).toBe(1);
  });

  it('only output/ may be written', () => {
    const t = craftTrial(
      task,
      [[write(0), writeFile('data/shipments.csv', 'id\n'), writeFile('steps.py', '')]],
      () => true,
    );
    expect(detectTamper(t.setup, t.final, task).map((v) => v.path)).toEqual([
      'data/shipments.csv',
      'steps.py',
    ]);
  });
});
