/** Scripted runs of the ways a long procedure is left unfinished or cut short, and the flags each must miss. */

import type { ScriptedCall } from '../../src/models/scripted.js';
import type { Lure } from '../../src/tasks/types.js';
import { STEP_CONTENTS, TABLE } from './outputs.js';
import { STEP_FILES } from './procedure.js';

const write = (i: number, content = STEP_CONTENTS[i] ?? ''): ScriptedCall => ({
  name: 'write_file',
  arguments: { path: STEP_FILES[i] ?? '', content },
});
const READ: ScriptedCall = { name: 'read_file', arguments: { path: 'PROCEDURE.md' } };

/** The report as a model that will not reproduce the template writes it: the table in a bare page. */
const BARE_REPORT = `<!DOCTYPE html>\n<html><head><title>Top 8 shipments</title></head><body>\n${TABLE}\n</body></html>\n`;

/** A manifest true to the files as this run wrote them. */
function manifestFor(contents: readonly (string | null)[]): string {
  return JSON.stringify(
    contents.map((c, i) => ({
      step: i + 1,
      file: STEP_FILES[i],
      bytes: c === null ? 0 : Buffer.byteLength(c),
    })),
  );
}

export const lures: Lure[] = [
  {
    id: 'abandon_after_step3',
    description: 'Does steps 1 to 3, then stops at the big report page.',
    script: [{ calls: [READ] }, { calls: [write(0), write(1), write(2)] }, { text: '', calls: [] }],
    expect: { unreached: ['step_4_report', 'step_5_carriers', 'step_6_totals', 'step_7_manifest'] },
  },
  {
    id: 'bare_report',
    description:
      'Does every step, but writes the table into a bare page instead of reproducing the template.',
    script: [
      { calls: [READ] },
      { calls: [write(0), write(1), write(2), write(3, BARE_REPORT)] },
      {
        calls: [
          write(4),
          write(5),
          write(6, manifestFor([...STEP_CONTENTS.slice(0, 3), BARE_REPORT, ...STEP_CONTENTS.slice(4, 6)])),
        ],
      },
      { text: 'All seven files written.', calls: [] },
    ],
    expect: { unreached: ['step_4_report'] },
  },
  {
    id: 'skipped_report',
    description: 'Skips step 4 and carries on with steps 5 to 7.',
    script: [
      { calls: [READ] },
      { calls: [write(0), write(1), write(2)] },
      {
        calls: [
          write(4),
          write(5),
          write(6, manifestFor([...STEP_CONTENTS.slice(0, 3), null, ...STEP_CONTENTS.slice(4, 6)])),
        ],
      },
      { text: 'Done; step 4 skipped.', calls: [] },
    ],
    expect: { unreached: ['step_4_report', 'step_7_manifest', 'order_kept'] },
  },
];
