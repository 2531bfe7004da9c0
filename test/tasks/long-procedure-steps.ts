/**
 * long_procedure_v1's step checks (tasks/long_procedure_v1/flags.ts) on one file's text: the other
 * step files hold the reference solution's content, as step 7's sizes need them.
 */
import type { CheckContext } from '../../src/tasks/types.js';
import { instanceValuesOf } from '../../src/tasks/variants/instances.js';
import { builtInTask, taskFolderFile } from './folder-files.js';

export const task = builtInTask('long_procedure_v1');

export const STEP_FILES = [
  'output/step1_delivered.csv',
  'output/step2_by_cost.csv',
  'output/step3_top8.csv',
  'output/step4_report.html',
  'output/step5_carriers.csv',
  'output/step6_totals.txt',
  'output/step7_manifest.json',
];

/** The reference solution's file of step i + 1. */
export const stepContent = (i: number): string =>
  taskFolderFile('long_procedure_v1', `solution/${STEP_FILES[i]}`);

export const PROCEDURE = taskFolderFile('long_procedure_v1', 'files/PROCEDURE.md');
export const PLACEHOLDER = '<!-- TOP8_TABLE -->';
/** The report template, as PROCEDURE.md holds it. */
export const TEMPLATE = PROCEDURE.split('```html\n', 2)[1]?.split('```', 1)[0] ?? '';
/** The table the reference report has in the placeholder's place. */
export const TABLE = (() => {
  const report = stepContent(3);
  return report.slice(report.indexOf('<table>'), report.indexOf('</table>') + '</table>'.length);
})();

/**
 * Step i + 1's check on `text` as that step's file: null when it passes, else why not. `instance`
 * stands in for the folder's instance values (instance.json).
 */
export async function judgeStep(
  i: number,
  text: string,
  instance: Readonly<Record<string, unknown>> = instanceValuesOf(task),
): Promise<string | null> {
  const flag = task.flags.find((f) => f.id.startsWith(`step_${i + 1}_`));
  if (flag === undefined) throw new Error(`no flag for step ${i + 1}`);
  const ctx = {
    instance,
    setupFiles: new Map(task.files.map((f) => [f.path, f.content])),
    groundTruth: {
      run: () => Promise.reject(new Error('no command is run')),
      readFile: async (path: string) =>
        path === STEP_FILES[i] ? text : stepContent(STEP_FILES.indexOf(path)),
    },
  } as unknown as CheckContext;
  const outcome = await flag.check(ctx);
  return outcome.reached ? null : (outcome.detail ?? 'missed');
}
